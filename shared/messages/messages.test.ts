import { describe, expect, it } from 'vitest';
import { fieldErrorLine, formatMessage, keyOfWireText, message, messageCatalog, messageText, placeholdersOf, said, wireText, type CoreMessageKey } from '.';

const keys = Object.keys(messageCatalog) as CoreMessageKey[];
const wiresOf = (key: CoreMessageKey): string[] => {
  const entry: { en: string; wire?: string | readonly string[] } = messageCatalog[key];
  return entry.wire === undefined ? [] : typeof entry.wire === 'string' ? [entry.wire] : [...entry.wire];
};
const pluralForms = (text: string) => [...text.matchAll(/\{\w+, plural, ([^{}]*)\}/g)].map((m) => m[1]);

describe('the message catalog', () => {
  it('has a Russian and an English text for every key', () => {
    expect(keys.length).toBeGreaterThan(80);
    for (const key of keys) {
      const entry: { en: string; ru: string; properName?: true } = messageCatalog[key];
      const { en, ru } = entry;
      expect(en.trim(), `${key}: English`).not.toBe('');
      expect(ru.trim(), `${key}: Russian`).not.toBe('');
      if (/[a-z]/i.test(en.replace(/\{[^}]*\}/g, '')) && !entry.properName) expect(ru, `${key}: Russian, not a copy of the English`).not.toBe(en);
    }
  });

  it('names a delivery service after a noun, never straight after a preposition («у службы СДЭК», not «у Песочница Экспресс»)', () => {
    // a service's name is said as it is (nominative): after «в», «у», «к»… Russian would need another case
    const afterPreposition = /(^|[\s«(])(в|во|у|к|ко|от|для|с|со|из|о|об|при|без|до|через|про)\s+\{(service|name)\}/i;
    const bad = keys.filter((key) => /\{(service|name)\}/.test(messageCatalog[key].ru) && afterPreposition.test(messageCatalog[key].ru));
    expect(bad).toEqual([]);
  });

  it('gives every language and the interface text the same parameters', () => {
    for (const key of keys) {
      const { en, ru } = messageCatalog[key];
      expect(placeholdersOf(ru), key).toEqual(placeholdersOf(en));
      // The first wire text is what the core sends; older wordings have no parameters (they are looked up as they are).
      const [first, ...older] = wiresOf(key);
      if (first !== undefined) expect(placeholdersOf(first), `${key}: wire`).toEqual(placeholdersOf(en));
      for (const text of older) expect(placeholdersOf(text), `${key}: ${text}`).toEqual([]);
    }
  });

  it('writes each plural with the forms its language needs', () => {
    for (const key of keys) {
      for (const forms of pluralForms(messageCatalog[key].ru)) expect(forms.split('|').map((f) => f.split('=')[0]).sort(), `${key}: ru`).toEqual(['few', 'many', 'one', 'other']);
      for (const forms of pluralForms(messageCatalog[key].en)) expect(forms.split('|').map((f) => f.split('=')[0]).sort(), `${key}: en`).toEqual(['one', 'other']);
    }
  });

  it('knows each fixed interface text once', () => {
    const seen = new Map<string, CoreMessageKey>();
    for (const key of keys)
      for (const text of wiresOf(key).filter((t) => !t.includes('{'))) {
        expect(seen.get(text.toLowerCase()), `${text} (${key})`).toBeUndefined();
        seen.set(text.toLowerCase(), key);
      }
  });
});

describe('a message by key', () => {
  it('keeps the interface English unchanged while the window gets its own words', () => {
    const duplicate = said('order.duplicateNumber', { number: '1001' });
    expect(duplicate.message).toBe('clientNumber 1001 must be unique within the company');
    expect(messageText(duplicate, 'ru')).toBe('Заказ с номером 1001 уже есть');
    expect(messageText(duplicate, 'en')).toBe('An order with number 1001 already exists');
  });

  it('says a count with the Russian word form for it', () => {
    const ahead = (days: number) => messageText(message('courier.msg.ahead', { days, until: '2026-12-01' }), 'ru');
    expect(ahead(1)).toContain('на 1 день вперёд');
    expect(ahead(3)).toContain('на 3 дня вперёд');
    expect(ahead(5)).toContain('на 5 дней вперёд');
    expect(ahead(21)).toContain('на 21 день вперёд');
    expect(messageText(message('courier.msg.ahead', { days: 1, until: 'x' }), 'en')).toContain('1 day ahead');
    expect(wireText(message('courier.msg.ahead', { days: 14, until: '2026-12-01' }))).toBe('calls are taken at most 14 days ahead (until 2026-12-01)');
  });

  it('writes a date in the language\'s form for people and as YYYY-MM-DD on the wire', () => {
    const past = message('dispatch.pastSendingDate', { date: '2026-11-27', today: '2026-11-28' });
    expect(messageText(past, 'ru')).toBe('Дата отправки 27.11.2026 уже прошла: Почта России считает дни по московскому времени, а в Москве сейчас 28.11.2026');
    expect(messageText(past, 'en')).toBe('The sending date 27/11/2026 has passed: Russian Post counts days in Moscow time, where it is 28/11/2026 now');
    expect(wireText(past)).toBe('The sending date 2026-11-27 has passed: Russian Post counts days in Moscow time, where it is 2026-11-28 now');
    expect(messageText(message('courier.msg.ahead', { days: 14, until: '2026-12-01' }), 'ru')).toContain('(до 01.12.2026)');
    // a frame's date inside another message too; a value that is not a date is shown as it is
    expect(messageText(message('provider.refusedOrder', { service: 'СДЭК', reason: message('provider.noDeliveryOn', { service: 'СДЭК', date: '2026-03-08' }) }), 'ru')).toBe('СДЭК отказалась принять заказ: СДЭК не может доставить 08.03.2026');
    expect(formatMessage('{d, date}', { d: 'завтра' }, 'ru-RU')).toBe('завтра');
  });

  it('gives every date a message carries the date kind, in both languages', () => {
    for (const key of keys) {
      for (const language of ['ru', 'en'] as const) {
        const text: string = messageCatalog[key][language];
        for (const name of ['date', 'today', 'until']) expect(text.includes(`{${name}}`), `${key}: ${language}: {${name}}`).toBe(false);
      }
    }
  });

  it('frames a service’s own words, translating only the frame', () => {
    const reached = message('provider.unreachable', { service: message('service.cdek'), method: 'POST', path: '/oauth/token', reason: message('net.refused', { address: '127.0.0.1:9' }) });
    const failed = said('conn.failed', { reason: reached });
    expect(failed.message).toBe('CDEK could not be reached (POST /oauth/token): connect ECONNREFUSED 127.0.0.1:9');
    expect(messageText(failed, 'ru')).toBe('Проверка не прошла: СДЭК: нет связи (POST /oauth/token): соединение отклонено (127.0.0.1:9)');
    expect(messageText(failed, 'en')).toBe('The check failed: CDEK could not be reached (POST /oauth/token): the connection was refused (127.0.0.1:9)');
    const ownWords = said('provider.refusedOrder', { service: message('service.cdek'), reason: 'Неверный адрес' });
    expect(messageText(ownWords, 'ru')).toBe('СДЭК отказалась принять заказ: Неверный адрес');
  });

  it('finds the key of a fixed text whatever its case, and none for other text', () => {
    expect(keyOfWireText('must be a number')).toBe('msg.number');
    expect(keyOfWireText('Must not be empty')).toBe('msg.required');
    expect(keyOfWireText('ИНН неверный')).toBeUndefined();
  });

  it('leaves an unknown placeholder visible', () => {
    expect(formatMessage('{a} and {b}', { a: 1 }, 'en')).toBe('1 and {b}');
  });
});

describe('a field error as a line of the errors file', () => {
  it('says the message by its key in the language asked, the field kept, other words as written', () => {
    const empty = { field: 'recipient.phone', ...said('import.at', { reason: message('msg.required'), where: message('import.where.cellEmpty', { cell: 'D8' }) }) };
    expect(fieldErrorLine(empty, 'ru')).toBe('recipient.phone: Заполните поле (ячейка D8 пуста)');
    expect(fieldErrorLine(empty, 'en')).toBe('recipient.phone: Fill in this field (cell D8 is empty)');
    expect(fieldErrorLine({ field: 'order', message: 'Неверный адрес' }, 'ru')).toBe('order: Неверный адрес');
  });
});

describe('the delivery services’ refusals and the interface’s own, keyed at their source', () => {
  const fivePost = message('service.fivepost');
  const post = message('service.russianPost');

  it('keeps each English sentence the interface sent before, word for word', () => {
    expect(said('provider.apiKeyRefused', { service: fivePost, detail: 'HTTP 401 nope' }).message).toBe('5Post did not accept the API key: HTTP 401 nope');
    expect(said('provider.freshJwtRefused', { service: fivePost, method: 'POST', path: '/api/v3/orders', status: 401 }).message).toBe('5Post refused a fresh JWT for POST /api/v3/orders (HTTP 401)');
    expect(said('provider.pdfOnly', { service: fivePost }).message).toBe('5Post prints its labels as PDF only; choose PDF for 5Post orders');
    expect(said('provider.labelsNotPdfOrZip', { service: fivePost, type: message('provider.noType') }).message).toBe('5Post sent labels that are neither a PDF nor a ZIP (no type)');
    expect(said('provider.pointNotPostOffice', { service: post, code: '101000' }).message).toBe(
      'Russian Post point 101000 is not a post office: a parcel "called for" goes to a post office; choose the ECOM tariff for pickup points and lockers',
    );
    expect(said('provider.officeRequired', { service: post }).message).toBe("name the post office the parcel is handed over at (or set the shop's office in the Russian Post connection)");
    expect(said('conn.gone', { id: 9, service: 'cdek' }).message).toBe('connection 9 of cdek does not exist (any more)');
    expect(said('conn.idNotOfKind', { id: message('conn.default'), service: 'cdek' }).message).toBe('(default) is not a cdek connection');
    expect(said('provider.upstreamNoEnvelope', { what: 'GET /lists/points', envelope: '{ rows, meta }' }).message).toBe('the upstream answered GET /lists/points without the list envelope { rows, meta }');
    expect(said('provider.upstreamLeftOut', { what: message('provider.what.handoverAct'), count: 2, list: '5: gone; 6: gone' }).message).toBe('the upstream did not make the handover act of 2 order(s): 5: gone; 6: gone');
    expect(said('api.malformedJson', { detail: 'Unexpected end of JSON input' }).message).toBe('Malformed JSON: Unexpected end of JSON input');
    expect(said('api.malformedXml', { detail: message('api.xmlOneRoot') }).message).toBe('Malformed XML: the document must have one root element (request)');
    expect(said('notFound.operation', { method: 'GET', path: '/v1/nothing' }).message).toBe('No such operation: GET /v1/nothing');
  });

  it('says them in Russian with the service named in Russian, its own words kept', () => {
    expect(messageText(message('provider.pointMaxKg', { service: post, code: '101000', kg: 5 }), 'ru')).toBe('Почта России: пункт 101000 принимает посылки до 5 кг');
    expect(messageText(message('provider.said', { service: fivePost, reason: 'Order is already at warehouse' }), 'ru')).toBe('5Post: Order is already at warehouse');
    expect(messageText(message('provider.trackingRefused', { service: message('service.russianPostTracking'), reason: 'Неверный логин' }), 'ru')).toBe('Отслеживание Почты России: отказ: Неверный логин');
    expect(messageText(message('provider.upstreamServiceRefused', { what: message('provider.verb.cancel') }), 'ru')).toBe('служба доставки агрегатора отказалась отменить заказ');
    expect(messageText(message('conn.idNotOfKind', { id: message('conn.default'), service: 'cdek' }), 'ru')).toBe('(по умолчанию) — не подключение к «cdek»');
    expect(messageText(message('provider.upstreamLeftOut', { what: message('provider.what.labels'), count: 21, list: 'x' }), 'ru')).toBe('агрегатор не подготовил этикетки для 21 заказа: x');
    expect(messageText(message('api.malformedJson', { detail: 'Unexpected token' }), 'ru')).toBe('Запрос — не корректный JSON: Unexpected token');
    expect(messageText(message('notFound.operation', { method: 'POST', path: '/app/commands/x' }), 'ru')).toBe('Операции POST /app/commands/x нет');
  });
});

describe('orders a print job or a postal batch left out, keyed', () => {
  it('keeps the interface English word for word and says them in Russian', () => {
    expect(said('printable.notFound', { orderId: '7' }).message).toBe('Order 7 not found');
    expect(messageText(message('printable.notFound', { orderId: '7' }), 'en')).toBe('Order 7 was not found');
    expect(messageText(message('printable.canceled', { orderId: '5' }), 'ru')).toBe('Заказ 5 отменён: отменённые заказы не печатаются');
    expect(said('dispatch.inBatchAlready', { number: 'RP-1' }).message).toBe('RP-1 is in a batch already');
    expect(messageText(message('dispatch.inBatchAlready', { number: 'RP-1' }), 'ru')).toBe('RP-1 уже в партии');
  });

  it('gives a service\'s refusal its own words alone on the wire and a frame in the window', () => {
    const refused = said('dispatch.notBatched', { reason: 'NOT_FOUND (NOT_FOUND)' });
    expect(refused.message).toBe('NOT_FOUND (NOT_FOUND)');
    expect(messageText(refused, 'ru')).toBe('Ответ службы: NOT_FOUND (NOT_FOUND)');
    const printRefused = said('printable.serviceRefused', { service: 'Почта России', reason: message('provider.fieldReason', { field: 'barcode', reason: 'no barcode' }) });
    expect(printRefused.message).toBe('Почта России refused: barcode: no barcode');
    expect(messageText(printRefused, 'ru')).toBe('Почта России отказалась: barcode: no barcode');
  });
});

describe('a status a message names', () => {
  it('is the status’s name in the person’s language, and its key on the wire as before', () => {
    const handed = said('order.handedOver', { orderId: '4002', status: 'onPointIn', what: message('order.deed.canceled') });
    expect(handed.message).toBe('Order 4002 has already been handed over to the delivery service (status onPointIn); it can no longer be canceled');
    expect(messageText(handed, 'ru')).toBe('Заказ 4002 уже передан службе доставки (статус «Принят на склад службы доставки»); его больше нельзя отменить');
    expect(messageText(handed, 'en')).toBe('Order 4002 has already been handed over to the delivery service (status “Accepted at the delivery service”); it can no longer be canceled');
    expect(wireText(message('order.alreadyRegistered', { orderId: '7', status: 'uploaded' }))).toBe('Order 7 is already registered with its delivery service (uploaded)');
    expect(messageText(message('order.finished', { orderId: '7', status: 'delivered', what: message('order.deed.changed') }), 'ru')).toContain('(статус «Вручён»)');
    // a value that is not a status key stays as it is
    expect(formatMessage('{s, status}', { s: 'ACCEPTED' }, 'ru-RU')).toBe('ACCEPTED');
  });

  it('has the status kind wherever the core passes an order’s status key', () => {
    for (const key of ['order.alreadyRegistered', 'order.handedOver', 'order.finished', 'provider.upstreamNoNumberYet'] as const) {
      for (const language of ['ru', 'en'] as const) expect(messageCatalog[key][language], `${key}: ${language}`).toContain('{status, status}');
    }
  });
});

describe('the upstream’s refusals and the outbox’s credentials line, keyed', () => {
  it('keeps the interface’s English and says them in Russian', () => {
    expect(said('provider.upstreamConnectionOnly', { id: 7 }).message).toBe('must be 7 (the connection in the service key) or left out');
    expect(said('provider.upstreamOtherConnection', { id: 9000005 }).message).toBe('9000005 belongs to another upstream connection');
    const holds = said('provider.upstreamHoldsOther', { orderId: '55', number: 'UP-1', reason: 'clientNumber UP-1 must be unique within the company' });
    expect(holds.message).toBe('The upstream already holds another order 55 with clientNumber UP-1. clientNumber UP-1 must be unique within the company');
    expect(messageText(holds, 'ru')).toBe('У агрегатора уже есть другой заказ 55 с номером UP-1. clientNumber UP-1 must be unique within the company');
    expect(messageText(message('provider.upstreamConnectionOnly', { id: 7 }), 'ru')).toBe('Должно быть 7 (подключение из ключа службы) или не заполнено');
    expect(messageText(message('provider.upstreamOtherConnection', { id: 9000005 }), 'ru')).toBe('9000005 относится к другому подключению к агрегатору');
  });

  it('says that orders held by refused credentials need the connection fixed, the service’s words first', () => {
    const refused = message('outbox.credentialsRefused', { reason: message('provider.credentialsRefused', { service: message('service.cdek'), detail: 'invalid_client (Bad credentials)' }) });
    expect(messageText(refused, 'ru')).toBe(
      'СДЭК: данные учётной записи не приняты: invalid_client (Bad credentials). Сами заказы не уйдут: исправьте логин, пароль или ключ подключения в «Настройки → Службы доставки» — после этого они отправятся.',
    );
    expect(messageText(refused, 'en')).toContain('will not go out by themselves');
  });
});
