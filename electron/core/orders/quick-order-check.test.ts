import { isDeepStrictEqual } from 'node:util';
import { orderCreateSchema } from '../../../shared/schemas/order';
import { quickOrderCreate } from './quick-order-check';

// The quick check must give exactly the schema's output (values, keys, their order) or step aside.

const item = (n: number) => ({ description: ` Кружка ${n} `, quantity: n, articul: `MG-${n}`, assessedCost: 1800.5, cost: 1800.5, weight: 100 * n });
/** An order as the row mapper builds it from the benchmark's columns. */
const common = () => ({
  order: { clientNumber: 'IMP-000001', providerKey: 'sandbox-express', tariffId: 103, pickupType: 1, deliveryType: 1, weight: 3400 },
  cost: { assessedCost: 6800, codCost: 7190, deliveryCost: 390 },
  sender: { countryCode: 'RU', region: 'Москва', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
  recipient: { contactName: 'Волкова Анна', phone: '+7 (933) 066-02-06', countryCode: 'ru', region: 'Москва', city: 'Москва', street: 'Советская', house: '39', office: '216' },
  places: [{ weight: 3400, length: 30, width: 20, height: 10, items: [item(1), item(2)] }],
});
/** Every field the quick check knows, filled (in an order of keys unlike the schema's). */
const full = () => ({
  places: [{ height: 10, width: 20, length: 30, weight: 500, barcode: 'P-1', placeNumber: '1', items: [{ ...item(3), barcode: '460', length: 1, width: 0, height: 2, markCode: 'MARK', companyName: 'ООО', companyInn: '7701', companyPhone: '+7 495' }] }],
  recipient: {
    brandName: 'Бренд', companyName: 'ООО', email: ' anna.s@example.ru ', phone: '89161234567', contactName: 'Анна', addressString: 'Москва, ул. Тверская, 7', index: '125009', house: '7', street: 'Тверская',
    city: 'Москва', region: 'Москва', comment: 'позвонить', additionalPhone: '+7 900', companyInn: '7701', cityGuid: 'abc', area: 'ЦАО', block: '2', office: '5', countryCode: ' by ',
  },
  sender: { phone: '+79161234567', contactName: 'Иван', postIndex: '101000', addressString: 'Москва', countryCode: 'RU' },
  cost: { paymentMethod: 1, quotedDeliveryCost: 410.1, deliveryCost: 390, codCost: 0, assessedCost: 0 },
  order: { paymentMethod: 2, description: 'note', comment: 'c', height: 10, width: 20, length: 30, weight: 500, pointInId: 7, pointOutId: 9, tariffId: 5, pickupType: 2, deliveryType: 2, providerConnectId: 3, providerKey: ' cdek ', clientNumber: ' A-1 ' },
});

type Json = Record<string, unknown> | unknown[];
/** 'aside' (left to the schema), 'agreed', or how the two differ. */
function compare(input: unknown): string {
  const quick = quickOrderCreate(input);
  if (quick === undefined) return 'aside';
  const parsed = orderCreateSchema.safeParse(input);
  if (!parsed.success) return `the schema refuses what the quick check took: ${JSON.stringify(input)}`;
  // the stored payload is the JSON: key order too; and no key of one is left undefined in the other
  if (JSON.stringify(quick) !== JSON.stringify(parsed.data) || !isDeepStrictEqual(quick, parsed.data)) return `${JSON.stringify(quick)} ≠ ${JSON.stringify(parsed.data)}`;
  return 'agreed';
}

/** Every path to a value (leaves and parts) of a payload. */
function paths(node: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof node !== 'object' || node === null) return [at];
  const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
  return [at, ...keys.flatMap((k) => paths((node as Record<string | number, unknown>)[k], [...at, k]))];
}
function changed(base: Json, path: (string | number)[], change: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  change(node, path[path.length - 1]);
  return copy;
}

const oddValues: unknown[] = [
  '', ' ', ' abc ', 'abc', 'x'.repeat(21), 'x'.repeat(51), 'x'.repeat(256), 'x'.repeat(1001), 0, -0, -1, 0.5, 1, 2, 3, 1.005, 12.34, 12.345, 1000, 1001,
  1_000_000, 1_000_001, 100_000, 100_001, 100_000_000, 100_000_000.01, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '12', '1', null, true, [], {}, 'RU', 'ru', ' kz ',
  'Россия', '123456', '12345', '+7 (916) 123-45-67', '+7916', 'a@b.ru', ' a.b@c-d.example.com ', 'a@b', 'a@@b.ru', 'анна@почта.рф', undefined,
];

describe('quickOrderCreate', () => {
  it("gives the schema's very output for the orders a sheet usually makes, and for every field it knows", () => {
    expect(compare(common())).toBe('agreed');
    expect(compare(full())).toBe('agreed');
  });

  it('steps aside (undefined) or agrees with the schema, whatever one value is changed to, left out or added', () => {
    let agreed = 0;
    let aside = 0;
    const differ: string[] = [];
    for (const base of [common(), full()]) {
      for (const path of paths(base)) {
        const variants: unknown[] = path.length === 0 ? [] : oddValues.map((v) => changed(base, path, (parent, key) => (parent[key] = v)));
        if (path.length) variants.push(changed(base, path, (parent, key) => delete parent[key]));
        variants.push(changed(base, [...path, 'unknownField'], (parent, key) => typeof parent === 'object' && parent !== null && !Array.isArray(parent) && (parent[key] = 'x')));
        for (const input of variants) {
          const outcome = compare(input);
          if (outcome === 'agreed') agreed++;
          else if (outcome === 'aside') aside++;
          else differ.push(outcome);
        }
      }
    }
    expect(differ.slice(0, 5)).toEqual([]);
    // both ways taken many times: the comparison above is not empty
    expect(agreed).toBeGreaterThan(500);
    expect(aside).toBeGreaterThan(500);
  }, 60_000);

  it('leaves what it does not know to the schema: extraParams, a return address, an empty e-mail, times, text numbers, nulls', () => {
    const withField = (part: 'order' | 'recipient' | 'cost', key: string, value: unknown) => {
      const o = common() as unknown as Record<string, Record<string, unknown>>;
      o[part][key] = value;
      return o;
    };
    expect(quickOrderCreate({ ...common(), extraParams: { insurance: true } })).toBeUndefined();
    expect(quickOrderCreate({ ...common(), returnAddress: common().sender })).toBeUndefined();
    expect(quickOrderCreate(withField('recipient', 'email', ''))).toBeUndefined();
    expect(quickOrderCreate(withField('order', 'deliveryTimeStart', '10:00'))).toBeUndefined();
    expect(quickOrderCreate(withField('order', 'weight', '3400'))).toBeUndefined();
    expect(quickOrderCreate(withField('cost', 'codCost', null))).toBeUndefined();
    expect(quickOrderCreate(withField('recipient', 'countryCode', 'Россия'))).toBeUndefined();
  });
});
