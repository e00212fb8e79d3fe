import { fixedOrText, message, said } from '../../shared/messages';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors';
import { orderCreateSchema } from '../../shared/schemas/order';
import { issuesToFieldErrors } from '../order-form/zod-issues';
import { ClientErrorCode } from '../transport/client-errors';
import { connectionResultMessage, errorHint, errorTitle, fieldLabel, fieldMessage } from './error-messages';
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
    for (const message of messages) expect(fieldMessage(message, ru), String(message)).not.toBe(message);
  });
});

describe('the core’s order rules and limits', () => {
  /** Every message the core's rules, point checks, sandbox intake and settings checks can return, and its Russian. */
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['must not be less than the places weigh: they weigh 3000 g in total, the order says 1200 g', 'Не меньше веса мест: места весят 3000 г, а в заказе указано 1200 г'],
    ['is less than its items weigh (800 g)', 'Меньше веса товаров в месте (800 г)'],
    ['must cover the goods (2500.00) plus deliveryCost (490.50) = 2990.50', 'Должен покрывать товары (2500.00 ₽) и доставку (490.50 ₽) = 2990.50 ₽'],
    ['unknown delivery service dhl', 'Неизвестная служба доставки dhl'],
    ['sandbox-lockers does not deliver to the door', 'sandbox-lockers не доставляет до двери'],
    ['sandbox-x does not deliver to pickup points', 'sandbox-x не доставляет в пункты выдачи'],
    ["sandbox-post does not collect from the client's door", 'sandbox-post не забирает заказы от вашей двери'],
    ['cdek does not take orders at its warehouse', 'cdek не принимает заказы на своём складе'],
    ['sandbox-lockers does not take cash on delivery', 'sandbox-lockers не принимает наложенный платёж'],
    ['tariff 999 is not a tariff of sandbox-express', 'Тариф 999 не относится к sandbox-express'],
    ['tariff 101 delivers to a pickup point (2)', 'Тариф 101 доставляет в пункт выдачи'],
    ['tariff 102 delivers to the door (1)', 'Тариф 102 доставляет до двери'],
    ['tariff 103 collects from the door (1)', 'Тариф 103 забирает заказ от двери'],
    ['tariff 101 expects the order at the warehouse (2)', 'По тарифу 101 заказ сдают на склад'],
    ['404 is not a pickup point of upstream:2:cdek', '404 — не пункт выдачи upstream:2:cdek'],
    ['405 is not a point of cdek', '405 — не пункт cdek'],
    ['sandbox-express has no additional service fitting (it has: insurance, sms)', 'У sandbox-express нет дополнительной услуги fitting (есть: insurance, sms)'],
    ['cdek has no additional service fitting', 'У cdek нет дополнительной услуги fitting'],
    ['must be true or false (1 or 0)', 'Должно быть «да» или «нет» (1 или 0)'],
    ['must be text', 'Должен быть текст'],
    ['point 17 is closed', 'Пункт 17 закрыт'],
    ['point 17 does not hand orders out', 'Пункт 17 не выдаёт заказы'],
    ['point 17 does not take orders in', 'Пункт 17 не принимает заказы'],
    ['point 17 does not take cash on delivery', 'Пункт 17 не принимает наложенный платёж'],
    ["31000 g is over the point's limit of 30000 g", '31000 г — больше предела пункта, 30000 г'],
    ["5 g is under the point's minimum of 100 g", '5 г — меньше минимума пункта, 100 г'],
    ["60×40×30 cm does not fit the point's 50×40×– cm", '60×40×30 см не помещается в ячейку пункта 50×40×– см'],
    ["the sum of the sizes, 160 cm, is over the point's limit of 150 cm", 'Сумма сторон, 160 см, больше предела пункта, 150 см'],
    ["cash on delivery of 60000 ₽ is over the point's limit of 50000 ₽", 'Наложенный платёж 60000 ₽ больше предела пункта, 50000 ₽'],
    ['tariff 7 does not exist at sandbox-post', 'У sandbox-post нет тарифа 7'],
    ['40000 g is over the limit of tariff 101 (30000 g)', '40000 г — больше предела тарифа 101 (30000 г)'],
    ['0 g is under the minimum of tariff 101 (1 g)', '0 г — меньше минимума тарифа 101 (1 г)'],
    ['point 88 does not exist at sandbox-express', 'У sandbox-express нет пункта 88'],
    ['sandbox-post has no pickup points in Тверь', 'У sandbox-post нет пунктов выдачи в городе Тверь'],
    ['sandbox-post does not deliver to the door at this address (it serves Москва, Казань)', 'sandbox-post не доставляет до двери по этому адресу (обслуживает: Москва, Казань)'],
    ['sandbox-post does not deliver to the door in Тверь', 'sandbox-post не доставляет до двери в городе Тверь'],
    ['must be at least 5', 'Не меньше 5'],
    ['must be at most 1440', 'Не больше 1440'],
    ['must be 10 or 12 digits', 'Нужно 10 или 12 цифр'],
    ['must be 9 digits', 'Нужно 9 цифр'],
    ['must be an http(s) address', 'Введите адрес http(s)'],
    ['must not be before dateFrom', 'Не раньше начальной даты'],
    ['is required for CDEK', 'Заполните поле'],
    ['is required for an upstream aggregator', 'Заполните поле'],
    ['an upstream aggregator always needs its token', 'Для вышестоящего агрегатора нужен его токен'],
    ['are required outside test mode', 'Введите данные учётной записи (без них работает только тестовый режим)'],
  ];

  it.each(cases)('reads “%s” in Russian', (message, russian) => {
    expect(fieldMessage(message, ru)).toBe(russian);
  });

  it('keeps the numbers and names in English too', () => {
    expect(fieldMessage('40000 g is over the limit of tariff 101 (30000 g)', en)).toBe('40000 g is over the limit of tariff 101 (30000 g)');
    expect(fieldMessage('must cover the goods (2500.00) plus deliveryCost (490.50) = 2990.50', en)).toBe('Must cover the goods (2500.00 ₽) plus delivery (490.50 ₽) = 2990.50 ₽');
    expect(fieldMessage("sandbox-post does not collect from the client's door", en)).toBe('sandbox-post does not collect from your door');
  });

  it('does not take a point’s cash refusal for a service’s', () => {
    expect(fieldMessage('point 17 does not take cash on delivery', en)).toBe('Point 17 does not take cash on delivery');
  });
});

describe('connection check results', () => {
  it('translates ShipDesk’s own results by their key, the service’s words inside them as they are', () => {
    expect(connectionResultMessage(said('conn.connectedCdekTest'), ru)).toBe('Подключено к СДЭК (тестовый режим)');
    expect(connectionResultMessage(said('conn.problem', { name: 'Склад', reason: fixedOrText('no credentials are stored') }), ru)).toBe(
      'Подключение «Склад»: данные учётной записи не сохранены',
    );
    const unreachable = message('provider.unreachable', { service: 'CDEK', method: 'POST', path: '/oauth/token', reason: 'connect ECONNREFUSED 127.0.0.1:9' });
    expect(connectionResultMessage(said('conn.failed', { reason: unreachable }), ru)).toBe(
      'Проверка не прошла: Служба CDEK не ответила (POST /oauth/token): connect ECONNREFUSED 127.0.0.1:9',
    );
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

  it('falls back to the server message for an unknown code, and keeps its description', () => {
    const error = { code: '040999', message: 'Tariff is closed', description: 'Use tariff 136' };
    expect(errorTitle(error, en)).toBe('Tariff is closed');
    expect(errorHint(error, en)).toBe('Use tariff 136');
  });
});
