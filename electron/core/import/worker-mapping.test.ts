import type { Tariff } from '../../../shared/schemas/lists';
import { uploadSettingsSchema } from '../../../shared/schemas/upload';
import type { CellValue, SheetRow } from './cells';
import { checkPayload, createOrderMapper } from './row-mapper';
import { compileSettings } from './settings';
import { createWorkerMapping, type LocateAsk } from './worker-mapping';

const tariffs: Tariff[] = [
  { id: 11, providerKey: 'shop-post', name: 'Посылка до двери', description: null, aliasName: null, weightMin: 0, weightMax: 30_000, pickupType: 1, deliveryType: 1, paymentCash: 1 },
];
const columnMap = {
  'order.clientNumber': 'A', 'order.deliveryType': 'B', 'order.pickupType': 'C', 'order.tariffId': 'D', 'order.weight': 'E', 'order.pointOutId': 'F',
  'recipient.contactName': 'G', 'recipient.phone': 'H', 'recipient.city': 'I', 'recipient.street': 'J', 'recipient.house': 'K', 'recipient.countryCode': 'L', 'recipient.index': 'M',
  'sender.contactName': 'G', 'sender.phone': 'H', 'sender.city': 'I', 'sender.street': 'J', 'sender.house': 'K',
  'item.description': 'N', 'item.quantity': 'O', 'item.cost': 'P', 'cost.assessedCost': 'Q', 'cost.codCost': 'R',
};

const defaultData = {
  'place.weight': '500', 'place.length': '10', 'place.width': '10', 'place.height': '10', 'item.weight': '250',
  'sender.countryCode': 'RU', 'sender.region': 'Москва', 'recipient.region': 'Россия',
};

// one valid order, then orders only the schema of POST /orders finds wrong (the mapper reads every cell fine)
const sheet: CellValue[][] = [
  ['A-1', 1, 1, 11, 500, '', 'Анна', '+79161234567', 'Москва', 'Тверская', '7', 'RU', '125009', 'Футболка', 2, 995, 1990, 0],
  ['A-2', 2, 1, 11, 500, '', 'Олег', '+79161234567', 'Казань', 'Баумана', '1', 'RU', '420111', 'Книга', 1, 650, 650, 0],
  ['A-3', 1, 1, 11, 500, '', 'Ира', '+79161234567', 'Тула', 'Ленина', '2', 'RU', '3000', 'Кружка', 1, 450, 450, 0],
  ['A-4', 1, 1, 11, 500, '', 'Пётр', '+79161234567', 'Омск', 'Мира', '3', 'RU', '644000', 'Чашка', 1, 300, 300, 0],
  ['A-4', '', '', '', '', '', '', '', '', '', '', '', '', 'Блюдце', 'два', 100, '', ''],
  ['A-5', 3, 1, 11, 500, '', 'Юля', '+79161234567', 'Сочи', 'Морская', '4', 'RU', '354000', 'Шарф', 1, 500, 500, 0],
];

const settings = () =>
  compileSettings(uploadSettingsSchema.parse({ providerKey: 'shop-post', rowStart: 2, columnSettings: { timeFormat: 'H:i', nameFormat: false, itemsNewRow: true }, columnMap, defaultData }), {
    lookupServices: async () => [],
    lookupTariffs: async () => tariffs,
  });
const rows = (): SheetRow[] => sheet.map((cells, i) => ({ row: i + 2, cells }));

describe('the schema check the reading worker leaves to the main thread', () => {
  it('finds the very errors, at the very cells, the mapper finds checking there itself', async () => {
    const compiled = await settings();
    const mapper = createOrderMapper(compiled);
    const inPlace = [...rows().flatMap((r) => mapper.push(r)), ...mapper.finish()];

    const mapping = createWorkerMapping(compiled);
    const sent = [...mapping.take(rows()), ...mapping.finish()];
    const asks: LocateAsk[] = [];
    const payloads = sent.map((o) => {
      expect(o.payload).toBeUndefined(); // nothing was checked in the worker
      const checked = checkPayload(o.unchecked!);
      if ('payload' in checked) return checked.payload;
      asks.push({ seq: o.seq, row: o.row, schema: true, errors: checked.issues.map((i) => ({ field: i.path, ...i.reason })) });
      return undefined;
    });
    const located = mapping.locate(asks);
    const errorsOf = (seq: number) => located[asks.findIndex((a) => a.seq === seq)] ?? [];

    expect(asks.map((a) => a.seq)).toEqual([1, 2, 3, 4]);
    expect(inPlace.map((c) => c.payload)).toEqual(payloads);
    expect(sent.map((o) => errorsOf(o.seq))).toEqual(inPlace.map((c) => c.errors));
    // and they are errors at cells, not payload paths
    expect(errorsOf(2)).toEqual([expect.objectContaining({ field: 'recipient.index', row: 4, message: expect.stringContaining('M4') })]);
    expect(errorsOf(3)).toEqual([expect.objectContaining({ field: 'item.quantity', row: 6, message: expect.stringContaining('O6') })]);
  });
});
