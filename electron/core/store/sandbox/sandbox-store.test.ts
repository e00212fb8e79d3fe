import { afterEach, describe, expect, it } from 'vitest';
import type { OrderCreate } from '../../../../shared/schemas/order';
import { testEngines, twoCompanies, type TestStores } from '../test-engines';

describe.each(testEngines)('the sandbox store ($name)', ({ open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  const order = (clientNumber: string) => ({ clientNumber, recipient: { name: 'Иван' } }) as unknown as OrderCreate;
  const shipment = (companyId: number, clientNumber: string) => ({ providerKey: 'sandbox', companyId, clientNumber, order: order(clientNumber), registeredAt: 5 });

  it('numbers shipments one after another, never twice even when registered all at once', async () => {
    opened = await open();
    const { sandbox } = opened.stores;
    const { shop } = await twoCompanies(opened.stores);
    expect(await sandbox.register(shipment(shop.id, 'A'), 'SB')).toBe('SB000000001');
    // Eight at a time (the outbox's default per service), a few times over: on PostgreSQL they run side by side.
    const numbers: string[] = [];
    for (let round = 0; round < 3; round++) {
      numbers.push(...(await Promise.all(Array.from({ length: 8 }, (_, i) => sandbox.register(shipment(shop.id, `B${round}-${i}`), 'SB')))));
    }
    expect(numbers.sort()).toEqual(Array.from({ length: 24 }, (_, i) => `SB${String(i + 2).padStart(9, '0')}`));
    expect(await sandbox.register(shipment(shop.id, 'C'), 'EX')).toBe('EX000000001');
  });

  it("finds a company's live shipment by client number until it is canceled or removed, and keeps the last data sent", async () => {
    opened = await open();
    const { sandbox } = opened.stores;
    const { shop, other } = await twoCompanies(opened.stores);
    const a = await sandbox.register(shipment(shop.id, 'A'), 'SB');
    const b = await sandbox.register(shipment(shop.id, 'B'), 'SB');
    expect((await sandbox.liveShipment('sandbox', shop.id, 'A'))?.providerNumber).toBe(a);
    expect(await sandbox.liveShipment('sandbox', other.id, 'A')).toBeNull();
    expect(await sandbox.liveShipment('express', shop.id, 'A')).toBeNull();

    await sandbox.update(a, { order: order('A2'), clientNumber: 'A2' }, 7);
    expect(await sandbox.shipment('sandbox', a)).toMatchObject({ clientNumber: 'A2', order: { clientNumber: 'A2' }, canceledAt: null, removedAt: null });
    await sandbox.cancel(a, 8);
    expect(await sandbox.liveShipment('sandbox', shop.id, 'A2')).toBeNull();
    await sandbox.remove(b, 9);
    expect(await sandbox.liveShipment('sandbox', shop.id, 'B')).toBeNull();
    expect((await sandbox.shipments('sandbox', [a, b, 'SB999999999'])).map((s) => [s.providerNumber, s.canceledAt, s.removedAt]).sort()).toEqual([
      [a, 8, null],
      [b, null, 9],
    ]);
    expect(await sandbox.shipments('sandbox', [])).toEqual([]);
  });
});
