import { describe, expect, it } from 'vitest';
import type { Connection } from '../../../shared/contract/connections';
import { fieldMessage } from '../../i18n/error-messages';
import { createTranslate } from '../../i18n/translate';
import type { FieldErrors } from '../../order-form/zod-issues';
import {
  checkCompany, checkConnectionChange, checkNewConnection, checkPreferences, checkSender, companyForm, emptyConnectionForm, fileSize, localApiAddress,
  newSenderForm,
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

describe('connection form', () => {
  it('CDEK outside test mode needs credentials; half of them is marked on the missing half', () => {
    const base = { ...emptyConnectionForm('cdek'), name: 'Main' };
    const none = checkNewConnection(base);
    expect(none.ok ? {} : shown(none.errors)).toEqual({ clientId: 'Enter the account and password, or turn on test mode' });
    expect(fieldMessage('are required outside test mode', en)).toBe('Enter the account and password, or turn on test mode');
    const half = checkNewConnection({ ...base, clientId: 'abc' });
    expect(half.ok ? {} : half.errors).toMatchObject({ clientSecret: 'is required' });
  });

  it('CDEK test mode without credentials uses the public test account; the address is optional but must be http(s)', () => {
    expect(checkNewConnection({ ...emptyConnectionForm('cdek'), name: 'Test', testMode: true })).toEqual({ ok: true, value: { providerKey: 'cdek', name: 'Test', testMode: true } });
    const bad = checkNewConnection({ ...emptyConnectionForm('cdek'), name: 'Test', testMode: true, baseUrl: 'ftp://x' });
    expect(bad.ok ? {} : shown(bad.errors)).toEqual({ baseUrl: 'Enter an address starting with http:// or https://' });
    expect(fieldMessage('must be an http(s) address', ru)).toBe('Введите адрес, начинающийся с http:// или https://');
  });

  it('an upstream aggregator needs its address and token', () => {
    const result = checkNewConnection({ ...emptyConnectionForm('upstream'), name: 'Agg' });
    expect(result.ok ? {} : shown(result.errors)).toEqual({ baseUrl: 'Fill in this field', token: 'Fill in this field' });
    expect(checkNewConnection({ ...emptyConnectionForm('upstream'), name: 'Agg', baseUrl: 'https://agg.example/v1', token: 'tok-123' })).toEqual({
      ok: true,
      value: { providerKey: 'upstream', name: 'Agg', testMode: false, baseUrl: 'https://agg.example/v1', credentials: { token: 'tok-123' } },
    });
  });

  it('editing: empty secret fields keep the stored credentials; forgetting them is only for test mode', () => {
    const form = { ...emptyConnectionForm('cdek'), name: 'Renamed' };
    expect(checkConnectionChange(form, stored())).toEqual({ ok: true, value: { id: 3, name: 'Renamed', testMode: false, baseUrl: null } });
    expect(checkConnectionChange({ ...form, testMode: true, forgetCredentials: true }, stored())).toEqual({
      ok: true,
      value: { id: 3, name: 'Renamed', testMode: true, baseUrl: null, credentials: null },
    });
    const noCredentials = checkConnectionChange(form, stored({ testMode: true, credentialsStored: false, clientIdHint: null }));
    expect(noCredentials.ok ? {} : shown(noCredentials.errors)).toEqual({ clientId: 'Enter the account and password, or turn on test mode' });
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
