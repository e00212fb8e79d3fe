import { describe, expect, it } from 'vitest';
import type { Connection, ConnectionFieldInfo, ConnectionKindInfo } from '../../../shared/contract/connections';
import { fieldMessage } from '../../i18n/error-messages';
import { createTranslate } from '../../i18n/translate';
import type { FieldErrors } from '../../order-form/zod-issues';
import {
  checkCompany, checkConnectionChange, checkNewConnection, checkPreferences, checkSender, companyForm, connectionFormOf, emptyConnectionForm, fileSize, localApiAddress,
  newSenderForm, type ConnectionForm,
} from './settings-forms';

const en = createTranslate('en');
const ru = createTranslate('ru');
/** The form's errors as the user reads them. */
const shown = (errors: FieldErrors, t = en) => Object.fromEntries(Object.entries(errors).map(([field, said]) => [field, fieldMessage(said, t)]));

const stored = (over: Partial<Connection> = {}): Connection => ({
  id: 3, providerKey: 'cdek', name: 'Main', testMode: false, baseUrl: null, clientIdHint: '…abcd', credentialsStored: true, credentialsReadable: true,
  settings: {}, isDefault: true, created: '2026-11-25T08:00:00+03:00', updated: '2026-11-25T08:00:00+03:00', ...over,
});

describe('company details form', () => {
  it('an INN of 11 digits, a KPP of 8 and a bad e-mail are marked with the core’s rules, in the user’s language', () => {
    const result = checkCompany({ ...companyForm({ name: 'Shop' }), inn: '12345678901', kpp: '12345678', email: 'shop@' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['email', 'inn', 'kpp']);
    expect(fieldMessage(result.errors.inn, en)).toBe('10 digits (company) or 12 digits (sole trader)');
    expect(fieldMessage(result.errors.inn, ru)).toBe('10 цифр (организация) или 12 цифр (ИП)');
    expect(fieldMessage(result.errors.kpp, ru)).toBe('9 цифр');
    expect(fieldMessage(result.errors.email, en)).toBe('Enter an e-mail address');
  });

  it('an INN whose check digit does not match is refused in the user’s language, not the interface’s English', () => {
    const result = checkCompany({ ...companyForm({ name: 'ООО «Ромашка»' }), inn: '7707083894' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(fieldMessage(result.errors.inn, ru)).toBe('Не сходится контрольная цифра: проверьте номер');
    expect(fieldMessage(result.errors.inn, en)).toBe('The check digit does not match: check the number');
  });

  it('good details pass; empty optional fields are simply not given', () => {
    const result = checkCompany({ ...companyForm({ name: 'ООО «Ромашка»' }), inn: '7707083893', ogrn: '1027700132195' });
    expect(result).toEqual({ ok: true, value: { name: 'ООО «Ромашка»', inn: '7707083893', kpp: undefined, ogrn: '1027700132195', legalAddress: undefined, phone: undefined, contactName: undefined } });
  });

  it('the name is required', () => {
    const result = checkCompany(companyForm({ name: '' }));
    expect(result.ok ? {} : shown(result.errors)).toEqual({ name: 'Fill in this field' });
  });
});

describe('sender profile form', () => {
  it('a new profile starts from the company details; a missing phone and name are marked', () => {
    const form = newSenderForm({ name: 'Shop', contactName: 'Anna', phone: undefined, email: undefined, inn: undefined, kpp: undefined, ogrn: undefined, legalAddress: undefined }, true);
    expect(form).toMatchObject({ companyName: 'Shop', contactName: 'Anna', countryCode: 'RU', isDefault: true });
    const result = checkSender({ ...form, city: 'Moscow' });
    expect(result.ok ? {} : shown(result.errors)).toEqual({ phone: 'Fill in this field', profileName: 'Fill in this field' });
  });

  it('keeps the stored address fields this form does not show', () => {
    const form = { ...newSenderForm(undefined, false), profileName: 'Warehouse', contactName: 'Ivan', phone: '+7 900 000-00-00', city: 'Kazan' };
    const result = checkSender(form, { street: 'Baumana', house: '5', city: 'Moscow' });
    expect(result.ok && result.value.sender).toMatchObject({ street: 'Baumana', house: '5', city: 'Kazan', countryCode: 'RU' });
  });
});

describe('connection form, drawn from the kinds table', () => {
  const parallelCalls: ConnectionFieldInfo = { name: 'parallelCalls', label: { ru: 'Запросов одновременно', en: 'Calls at once' }, secret: false, type: 'number', required: 'never', min: 1, max: 64 };
  // As connections.kinds describes CDEK and an upstream aggregator.
  const cdek: ConnectionKindInfo = {
    key: 'cdek', name: 'СДЭК', names: { ru: 'СДЭК', en: 'CDEK' }, testMode: true, publicTestAccount: true, baseUrl: 'optional', aggregator: false,
    fields: [
      { name: 'clientId', label: { ru: 'Идентификатор', en: 'Client id' }, secret: true, type: 'text', required: 'outsideTestMode', hint: true },
      { name: 'clientSecret', label: { ru: 'Ключ', en: 'Client secret' }, secret: true, type: 'text', required: 'outsideTestMode' },
      parallelCalls,
    ],
  };
  const upstream: ConnectionKindInfo = {
    key: 'upstream', name: 'Агрегатор', names: { ru: 'Агрегатор', en: 'Upstream aggregator' }, testMode: false, publicTestAccount: false, baseUrl: 'required', aggregator: true,
    fields: [{ name: 'token', label: { ru: 'Токен API', en: 'API token' }, secret: true, type: 'text', required: 'always', hint: true }, parallelCalls],
  };
  const form = (providerKey: string, patch: Partial<ConnectionForm> = {}): ConnectionForm => ({ ...emptyConnectionForm(providerKey), name: 'Main', ...patch });

  it('CDEK outside test mode needs credentials; half of them is marked on the missing half', () => {
    const none = checkNewConnection(form('cdek'), cdek);
    expect(none.ok ? {} : shown(none.errors)).toEqual({ clientId: 'Enter the account and password, or turn on test mode' });
    expect(fieldMessage('are required outside test mode', en)).toBe('Enter the account and password, or turn on test mode');
    const half = checkNewConnection(form('cdek', { fields: { clientId: 'abc' } }), cdek);
    expect(half.ok ? {} : shown(half.errors)).toEqual({ clientSecret: 'Fill in this field' });
    expect(checkNewConnection(form('cdek', { fields: { clientId: ' abc ', clientSecret: 'xyz' } }), cdek)).toEqual({
      ok: true,
      value: { providerKey: 'cdek', name: 'Main', testMode: false, credentials: { clientId: 'abc', clientSecret: 'xyz' } },
    });
  });

  it('CDEK test mode without credentials uses the public test account; the address is optional but must be http(s)', () => {
    expect(checkNewConnection(form('cdek', { name: 'Test', testMode: true }), cdek)).toEqual({ ok: true, value: { providerKey: 'cdek', name: 'Test', testMode: true } });
    const bad = checkNewConnection(form('cdek', { testMode: true, baseUrl: 'ftp://x' }), cdek);
    expect(bad.ok ? {} : shown(bad.errors)).toEqual({ baseUrl: 'Enter an address starting with http:// or https://' });
    expect(fieldMessage('must be an http(s) address', ru)).toBe('Введите адрес, начинающийся с http:// или https://');
  });

  it('an upstream aggregator needs its address and token, and has no test mode whatever the switch said', () => {
    const result = checkNewConnection(form('upstream', { testMode: true }), upstream);
    expect(result.ok ? {} : shown(result.errors, ru)).toEqual({ baseUrl: 'Заполните поле', token: 'Заполните поле' });
    expect(checkNewConnection(form('upstream', { baseUrl: 'https://agg.example/v1', fields: { token: 'tok-123', parallelCalls: '4' } }), upstream)).toEqual({
      ok: true,
      value: { providerKey: 'upstream', name: 'Main', testMode: false, baseUrl: 'https://agg.example/v1', credentials: { token: 'tok-123' }, settings: { parallelCalls: 4 } },
    });
    const notANumber = checkNewConnection(form('upstream', { baseUrl: 'https://agg.example/v1', fields: { token: 't', parallelCalls: 'many' } }), upstream);
    expect(notANumber.ok ? {} : shown(notANumber.errors)).toEqual({ parallelCalls: 'Enter a number' });
  });

  it('editing: empty secret fields keep the stored credentials; forgetting them is only for test mode', () => {
    const renamed = form('cdek', { name: 'Renamed' });
    expect(checkConnectionChange(renamed, stored(), cdek)).toEqual({ ok: true, value: { id: 3, name: 'Renamed', testMode: false, baseUrl: null, settings: {} } });
    expect(checkConnectionChange({ ...renamed, testMode: true, forgetCredentials: true }, stored(), cdek)).toEqual({
      ok: true,
      value: { id: 3, name: 'Renamed', testMode: true, baseUrl: null, settings: {}, credentials: null },
    });
    const noCredentials = checkConnectionChange(renamed, stored({ testMode: true, credentialsStored: false, clientIdHint: null }), cdek);
    expect(noCredentials.ok ? {} : shown(noCredentials.errors)).toEqual({ clientId: 'Enter the account and password, or turn on test mode' });
    const upstreamWithoutAddress = checkConnectionChange(form('upstream'), stored({ providerKey: 'upstream', baseUrl: 'https://agg.example/v1' }), upstream);
    expect(upstreamWithoutAddress.ok ? {} : shown(upstreamWithoutAddress.errors)).toEqual({ baseUrl: 'Fill in this field' });
  });

  it('a number emptied in the form goes back to its default (null); one never set is not sent', () => {
    const withFour = stored({ settings: { parallelCalls: 4 } });
    expect(connectionFormOf(withFour).fields).toEqual({ parallelCalls: '4' });
    expect(connectionFormOf(withFour).fields).not.toHaveProperty('clientSecret'); // secrets are never filled in
    const emptied = checkConnectionChange({ ...connectionFormOf(withFour), fields: { parallelCalls: '' } }, withFour, cdek);
    expect(emptied).toEqual({ ok: true, value: { id: 3, name: 'Main', testMode: false, baseUrl: null, settings: { parallelCalls: null } } });
    const changed = checkConnectionChange({ ...connectionFormOf(withFour), fields: { parallelCalls: '2' } }, withFour, cdek);
    expect(changed.ok && changed.value.settings).toEqual({ parallelCalls: 2 });
    expect(checkConnectionChange(form('cdek'), stored(), cdek)).toMatchObject({ ok: true, value: { settings: {} } });
  });
});

describe('preferences form', () => {
  it('numbers within the core’s limits pass; others are marked with the limit', () => {
    expect(checkPreferences({ refreshIntervalMinutes: '45', stuckThresholdDays: '7' })).toEqual({ ok: true, value: { refreshIntervalMinutes: 45, stuckThresholdDays: 7 } });
    const result = checkPreferences({ refreshIntervalMinutes: '3', stuckThresholdDays: '1.5' });
    expect(result.ok ? {} : shown(result.errors)).toEqual({ refreshIntervalMinutes: 'Must be at least 5', stuckThresholdDays: 'Enter a whole number' });
    expect(shown(result.ok ? {} : result.errors, ru).refreshIntervalMinutes).toBe('Не меньше 5');
    const empty = checkPreferences({ refreshIntervalMinutes: '', stuckThresholdDays: '400' });
    expect(empty.ok ? {} : shown(empty.errors)).toEqual({ refreshIntervalMinutes: 'Fill in this field', stuckThresholdDays: 'Must be at most 365' });
  });
});

describe('small helpers', () => {
  it('the local API address: what the core announces, else the page’s own server in browser mode, else none', () => {
    expect(localApiAddress('http://127.0.0.1:4318/v1', 'ipc', 'app://shipdesk')).toBe('http://127.0.0.1:4318/v1');
    expect(localApiAddress(undefined, 'http', 'http://127.0.0.1:5000')).toBe('http://127.0.0.1:5000/v1');
    expect(localApiAddress(null, 'ipc', 'app://shipdesk')).toBeNull();
  });

  it('file sizes read as people read them', () => {
    expect(fileSize(512, 'en')).toBe('512 B');
    expect(fileSize(1536, 'en')).toBe('1.5 kB');
    expect(fileSize(5 * 1024 * 1024, 'ru')).toBe('5 МБ');
  });
});
