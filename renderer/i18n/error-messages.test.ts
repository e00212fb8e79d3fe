import { fieldReasons, fixedOrText, message, said } from '../../shared/messages';
import { issueMessage } from '../../shared/messages/issues';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors';
import { orderCreateSchema } from '../../shared/schemas/order';
import { text } from '../../shared/schemas/primitives';
import { issuesToFieldErrors } from '../order-form/zod-issues';
import { ClientErrorCode } from '../transport/client-errors';
import { connectionResultMessage, errorHint, errorTitle, fieldLabel, fieldMessage, statusWords, withOrderNumber } from './error-messages';
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

  it('carries the number out of a length limit, by key', () => {
    const tooLong = text(50).safeParse('x'.repeat(51));
    expect(fieldMessage(issueMessage(tooLong.error!.issues[0], false), ru)).toBe('Не длиннее 50 символов');
  });

  it('reads a missing value as required, whatever zod said', () => {
    const missing = text(50).safeParse(undefined);
    expect(fieldMessage(issueMessage(missing.error!.issues[0], true), ru)).toBe('Заполните поле');
  });

  it('says the core’s duplicate number by its key, naming the number', () => {
    expect(fieldMessage(said('order.duplicateNumber', { number: '1001' }), ru)).toBe('Заказ с номером 1001 уже есть');
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
    for (const message of messages) expect(fieldMessage(message, ru), String(message)).not.toBe(message);
  });
});

describe('the core’s messages by key', () => {
  it('says a rule with its numbers in Russian and in English', () => {
    const over = said('rule.tariffOverWeight', { weight: 40000, id: 101, max: 30000 });
    expect(fieldMessage(over, ru)).toBe('40000 г — больше предела тарифа 101 (30000 г)');
    expect(fieldMessage(over, en)).toBe('40000 g is over the limit of tariff 101 (30000 g)');
  });

  it('names each field of a service’s refusal by its label and says each reason by its key', () => {
    const refusal = said('provider.refusedOrder', {
      service: 'sandbox-express',
      reason: fieldReasons([{ field: 'recipient.phone', ...said('msg.phone') }, { field: 'order.weight', ...said('msg.number') }]),
    });
    expect(refusal.message).toBe('sandbox-express refused the order: recipient.phone: must be a phone number; order.weight: must be a number');
    expect(fieldMessage(refusal, ru)).toBe('sandbox-express отказалась принять заказ: Получатель › Телефон: Введите номер телефона, например +7 900 123-45-67; Вес, г: Введите число');
  });

  it('keeps a service’s own words inside our frame as it wrote them', () => {
    expect(fieldMessage(said('provider.refusedOrder', { service: 'cdek', reason: 'Неверный адрес' }), ru)).toBe('cdek отказалась принять заказ: Неверный адрес');
  });

  it('says a message with a key the window does not know by its English', () => {
    expect(fieldMessage({ message: 'point 17 is closed', key: 'rule.noSuchKey' }, ru)).toBe('point 17 is closed');
  });
});

describe('connection check results', () => {
  it('translates ShipDesk’s own results by their key, the service’s words inside them as they are', () => {
    expect(connectionResultMessage(said('conn.connectedCdekTest'), ru)).toBe('Подключено к СДЭК (тестовый режим)');
    expect(connectionResultMessage(said('conn.problem', { name: 'Склад', reason: fixedOrText('no credentials are stored') }), ru)).toBe(
      'Подключение «Склад»: данные учётной записи не сохранены',
    );
    const unreachable = message('provider.unreachable', { service: message('service.cdek'), method: 'POST', path: '/oauth/token', reason: message('net.refused', { address: '127.0.0.1:9' }) });
    expect(connectionResultMessage(said('conn.failed', { reason: unreachable }), ru)).toBe('Проверка не прошла: СДЭК: нет связи (POST /oauth/token): соединение отклонено (127.0.0.1:9)');
    // A reason the catalog does not know stays as the system wrote it.
    const other = message('provider.unreachable', { service: message('service.cdek'), method: 'POST', path: '/oauth/token', reason: 'fetch failed' });
    expect(connectionResultMessage(said('conn.failed', { reason: other }), ru)).toBe('Проверка не прошла: СДЭК: нет связи (POST /oauth/token): fetch failed');
  });

  it('leaves a service’s own words alone, even ones that look like a form hint', () => {
    expect(connectionResultMessage('client_id is required', ru)).toBe('client_id is required');
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

  it('says a full disk in the person\'s language, not with the server\'s English description', () => {
    const error = { code: ErrorCode.storageFull, message: 'Insufficient storage', description: 'The disk of the ShipDesk data folder is full or cannot be written; nothing was changed.' };
    expect(errorTitle(error, ru)).toBe('Диск заполнен: ничего не сохранено');
    expect(errorHint(error, ru)).toMatch(/^Диск с папкой данных ShipDesk заполнен/);
  });

  it('says a database file gone from under the app as that, not as a full disk, in both languages', () => {
    const { message: description, ...ref } = said('storage.databaseGone', { file: '/data/shipdesk.db' });
    const error = { code: ErrorCode.storageFull, message: 'Insufficient storage', description, ...ref };
    expect(errorTitle(error, ru)).toBe('Файл базы данных пропал: ничего не сохранено');
    expect(errorTitle(error, en)).toBe('The database file is gone: nothing was saved');
    expect(errorHint(error, ru)).toMatch(/^Файл базы данных \/data\/shipdesk\.db пропал или заменён/);
    expect(errorHint(error, en)).toMatch(/^The database file \/data\/shipdesk\.db is gone or was replaced/);
  });

  it('falls back to the server message for an unknown code, and keeps its description', () => {
    const error = { code: '040999', message: 'Tariff is closed', description: 'Use tariff 136' };
    expect(errorTitle(error, en)).toBe('Tariff is closed');
    expect(errorHint(error, en)).toBe('Use tariff 136');
  });
});

describe('a refusal about one order', () => {
  it('names the order by the shop\'s number, not the interface\'s id', () => {
    const t = createTranslate('ru');
    const refused = { code: ErrorCode.validation, ...said('order.finished', { orderId: '2', status: 'delivered', what: 'canceled' }) };
    expect(errorHint(withOrderNumber(refused, 'OE-2'), t)).toMatch(/^Заказ OE-2 завершён \(статус «[^»]+»\)/);
    expect(withOrderNumber({ code: ErrorCode.validation, message: 'Bad' }, 'OE-2')).toEqual({ code: ErrorCode.validation, message: 'Bad' });
  });
});

describe("a status's words in a list", () => {
  it('says ours by key in the window\'s language, and a service\'s own words as written', () => {
    const ru = createTranslate('ru');
    expect(statusWords({ statusDescription: "Canceled at the client's request", statusDescriptionMessage: message('order.canceledByClient') }, ru)).toBe('Отменён по запросу магазина');
    expect(statusWords({ statusDescription: 'Посылка на складе в Казани', statusDescriptionMessage: null }, ru)).toBe('Посылка на складе в Казани');
    expect(statusWords({ statusDescription: null }, ru)).toBeNull();
  });
});
