import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors';
import { orderCreateSchema } from '../../shared/schemas/order';
import { issuesToFieldErrors } from '../order-form/zod-issues';
import { ClientErrorCode } from '../transport/client-errors';
import { errorHint, errorTitle, fieldLabel, fieldMessage } from './error-messages';
import { createTranslate } from './translate';

const ru = createTranslate('ru');
const en = createTranslate('en');

describe('field messages', () => {
  it('translates the shared schema messages', () => {
    expect(fieldMessage('must be a phone number', ru)).toBe('Введите номер телефона, например +7 900 123-45-67');
    expect(fieldMessage('must not be empty', en)).toBe('Fill in this field');
    expect(fieldMessage('must have at most two decimals (kopecks)', ru)).toBe('Не больше двух знаков после запятой');
    expect(fieldMessage('is required when deliveryType = 2', en)).toBe('Enter the pickup point for delivery to a point');
  });

  it('carries the number out of a length limit', () => {
    expect(fieldMessage('must be at most 50 characters', ru)).toBe('Не длиннее 50 символов');
  });

  it('reads zod’s own “missing” wording as required', () => {
    expect(fieldMessage('Invalid input: expected string, received undefined', ru)).toBe('Заполните поле');
  });

  it('recognises the core’s duplicate-number message', () => {
    expect(fieldMessage('clientNumber must be unique within one client company', en)).toBe('An order with this number already exists');
  });

  it('shows a message it does not know as the server wrote it', () => {
    expect(fieldMessage('tariff 7 does not deliver to this city', ru)).toBe('tariff 7 does not deliver to this city');
  });

  it('has a translation for every message the order schema can produce', () => {
    const bad = {
      order: { clientNumber: 'x'.repeat(51), providerKey: '', deliveryType: 3, pickupType: 'a', tariffId: 1.5, weight: -1, deliveryDate: '1.1.2026' },
      cost: { assessedCost: 1.234, codCost: 1e12 },
      sender: { countryCode: 'RUS', contactName: '', phone: 'call me', email: 'nope' },
      recipient: { countryCode: 'RU', contactName: 'A', phone: '+79001234567' },
      places: [{ weight: 'heavy', items: [] }],
    };
    const parsed = orderCreateSchema.safeParse(bad);
    expect(parsed.success).toBe(false);
    const messages = Object.values(issuesToFieldErrors(parsed.error!.issues, bad));
    expect(messages.length).toBeGreaterThan(8);
    for (const message of messages) expect(fieldMessage(message, ru), message).not.toBe(message);
  });
});

describe('field labels', () => {
  it('names nested fields the way a person reads them', () => {
    expect(fieldLabel('places.0.items.1.quantity', en)).toBe('Place 1 › Item 2 › Qty');
    expect(fieldLabel('recipient.phone', ru)).toBe('Получатель › Телефон');
    expect(fieldLabel('order.clientNumber', en)).toBe('Order number');
    expect(fieldLabel('cost.codCost', ru)).toBe('Наложенный платёж, ₽');
  });

  it('keeps names it does not know', () => {
    expect(fieldLabel('extraParams.fitting', en)).toBe('Additional services › fitting');
  });
});

describe('error titles', () => {
  it('translates interface codes', () => {
    expect(errorTitle({ code: ErrorCode.alreadyCanceled, message: 'Order already canceled' }, ru)).toBe('Заказ уже отменён');
  });

  it('translates a lost connection and suggests what to do', () => {
    const error = { code: ClientErrorCode.offline, message: 'orders.list: unreachable' };
    expect(errorTitle(error, ru)).toBe('Нет связи с ShipDesk');
    expect(errorHint(error, en)).toBe('Check that ShipDesk is running, then try again.');
  });

  it('falls back to the server message for an unknown code, and keeps its description', () => {
    const error = { code: '040999', message: 'Tariff is closed', description: 'Use tariff 136' };
    expect(errorTitle(error, en)).toBe('Tariff is closed');
    expect(errorHint(error, en)).toBe('Use tariff 136');
  });
});
