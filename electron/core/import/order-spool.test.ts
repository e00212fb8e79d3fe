import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOrderSpool } from './order-spool';
import type { PreparedOrder } from '../store/orders/prepared-order';

const order = (n: number, extra = ''): PreparedOrder => ({
  clientNumber: `A-${n}`,
  providerKey: 'sandbox',
  providerConnectId: n % 2 ? null : 7,
  recipientName: 'Смирнова Анна\nПетровна',
  recipientPhone: '+79219876543',
  recipientCity: n % 3 ? 'Санкт-Петербург' : null,
  codKopecks: n * 100,
  assessedKopecks: 299050,
  quotedDeliveryKopecks: n % 2 ? 49_050 : null,
  deliveryKopecks: null,
  json: JSON.stringify({ order: { clientNumber: `A-${n}`, comment: `строка ${n}\n${extra}` } }),
});

describe('the checked orders of a run wait in a file, not in memory', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'spool-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back every kept order as it was put, in batches, and only the kept ones', () => {
    const spool = createOrderSpool(path.join(dir, 'imports', '1', '5.orders.tmp'));
    const kept = (seq: number) => seq % 7 !== 3; // the others failed their check
    for (let seq = 0; seq < 5000; seq++) if (kept(seq)) spool.put(seq, order(seq));
    expect(spool.size).toBe(4286);
    expect(statSync(path.join(dir, 'imports', '1', '5.orders.tmp')).size).toBeGreaterThan(500_000); // written out as it goes
    const batch = Array.from({ length: 1000 }, (_, k) => 2000 + k);
    const read = spool.read(batch);
    expect(read.size).toBe(batch.filter(kept).length);
    expect(read.get(2000)).toEqual(order(2000));
    expect(read.has(2005)).toBe(false);
    spool.drop(2000);
    expect(spool.has(2000)).toBe(false);
    expect(spool.read([2000, 4999]).get(4999)).toEqual(order(4999));
    spool.remove();
  });

  it('keeps an order larger than its write buffer whole', () => {
    const spool = createOrderSpool(path.join(dir, 'big.orders.tmp'));
    const big = order(1, 'ж'.repeat(400_000));
    spool.put(0, order(0));
    spool.put(1, big);
    spool.put(2, order(2));
    expect([...spool.read([0, 1, 2]).values()]).toEqual([order(0), big, order(2)]);
    spool.remove();
  });

  it('is deleted when the run ends', () => {
    const file = path.join(dir, 'gone.orders.tmp');
    const spool = createOrderSpool(file);
    spool.put(0, order(0));
    spool.remove();
    expect(existsSync(file)).toBe(false);
  });
});
