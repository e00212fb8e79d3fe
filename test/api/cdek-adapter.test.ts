import { manualClock } from '../../electron/core/clock';
import { manualTimers, type ManualTimers } from '../../electron/core/scheduler/timers';
import { syncCarrierPoints, syncCarrierPointsIfStale } from '../../electron/core/lists/carrier-reference';
import { createCdekProvider, type CdekProvider, type CdekProviderOptions } from '../../electron/core/providers/cdek/cdek-provider';
import { createCdekClient, type CdekClientOptions } from '../../electron/core/providers/cdek/client';
import { CdekApiError, CdekAuthError } from '../../electron/core/providers/cdek/errors';
import { CDEK_POINT_ID_BASE } from '../../electron/core/providers/cdek/offices-store';
import { ProviderRejectedError, ProviderUnavailableError, type ShipmentRequest } from '../../electron/core/providers/provider';
import { courierCallCreateSchema } from '../../shared/schemas/courier-call';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import { cdekOrder } from '../fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT, generateOffices, startFakeCdek, type FakeCdek, type FakeCdekOptions } from '../fakes/cdek/server';
import { createTestApp } from '../helpers/test-app';

const shipment = (clientNumber: string, patch?: (o: OrderCreateInput) => void): ShipmentRequest => ({
  companyId: 1,
  orderId: 1,
  clientNumber,
  order: orderCreateSchema.parse(cdekOrder(clientNumber, patch)),
});

interface Env {
  fake: FakeCdek;
  cdek: CdekProvider;
  clock: ReturnType<typeof manualClock>;
  /** The app's timers (the status scheduler's), moved by hand. */
  timers: ManualTimers;
  app: Awaited<ReturnType<typeof createTestApp>>;
  calls: { method: string; path: string; status?: number; failure?: string }[];
  close(): Promise<void>;
}

/** The fake CDEK on a real port, the real core with the CDEK adapter injected, one clock for both. */
async function setup(fakeOptions: FakeCdekOptions = {}, tune: Partial<Omit<CdekProviderOptions, 'client'>> & { client?: Partial<CdekClientOptions> } = {}): Promise<Env> {
  const clock = manualClock();
  const fake = await startFakeCdek({ now: clock.now, ...fakeOptions });
  const calls: Env['calls'] = [];
  const { client: clientTune, ...providerTune } = tune;
  let cdek!: CdekProvider;
  const timers = manualTimers(clock);
  const app = await createTestApp({
    clock,
    timers,
    providers: ({ reference }) => {
      const client = createCdekClient({ baseUrl: fake.url, ...FAKE_TEST_ACCOUNT, clock, timeoutMs: 5_000, onCall: (c) => calls.push(c), ...clientTune });
      cdek = createCdekProvider({ client, reference, clock, pollDelaysMs: [0, 0, 0, 0], sleep: async () => {}, ...providerTune });
      return [cdek];
    },
  });
  return {
    fake,
    cdek,
    clock,
    timers,
    app,
    calls,
    async close() {
      await app.close();
      await fake.close();
    },
  };
}

describe('CDEK adapter against the fake CDEK over HTTP', () => {
  let env: Env;
  afterEach(() => env?.close());

  describe('authorization', () => {
    it('gets one token, reuses it, renews it shortly before it expires, and once more when CDEK says it expired', async () => {
      env = await setup({ tokenTtlSeconds: 600 });
      const { fake, cdek, clock } = env;
      await cdek.register(shipment('AUTH-1'));
      await cdek.find(shipment('AUTH-1'));
      expect(fake.stats.tokensIssued).toBe(1);

      clock.advance(600_000 - 30_000); // inside the last minute of its life: renewed before use
      await cdek.find(shipment('AUTH-1'));
      expect(fake.stats.tokensIssued).toBe(2);
      expect(fake.stats.unauthorized).toBe(0);

      fake.expireTokens(); // CDEK forgets it early: 401 v2_token_expired → one renewal, the call repeated
      expect(await cdek.find(shipment('AUTH-1'))).toMatchObject({ providerNumber: expect.any(String) });
      expect(fake.stats.tokensIssued).toBe(3);
      expect(fake.stats.unauthorized).toBe(1);
    });

    it('wrong credentials are an OAuth error: retried like an outage, with CDEK\'s reason', async () => {
      env = await setup({}, { client: { clientSecret: 'wrong' } });
      const error = await env.cdek.register(shipment('AUTH-2')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CdekAuthError);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect((error as Error).message).toMatch(/invalid_client/);
      expect(env.fake.registrations('AUTH-2')).toBe(0);
    });
  });

  describe('asynchronous creation', () => {
    it('POST answers ACCEPTED; the adapter polls until SUCCESSFUL and takes the CDEK number once it appears', async () => {
      env = await setup({ validation: 'next-get', cdekNumberAfterGets: 2 });
      const registration = await env.cdek.register(shipment('ASYNC-1'));
      const atCdek = env.fake.order('ASYNC-1')!;
      expect(registration).toEqual({
        providerNumber: atCdek.cdekNumber,
        additionalProviderNumber: atCdek.uuid,
        barcode: atCdek.cdekNumber,
        registeredAt: env.clock.now(),
      });
      expect(env.calls.filter((c) => c.method === 'GET').length).toBe(3);
      expect(env.fake.registrations('ASYNC-1')).toBe(1);
      // What CDEK received is the mapped body.
      expect(atCdek.body).toMatchObject({ type: 1, number: 'ASYNC-1', tariff_code: 139, delivery_recipient_cost: { value: 490.5 } });
    });

    it('still ACCEPTED after the bound: ProviderUnavailableError, and the lookup by number later finds the same order', async () => {
      env = await setup({ validation: 'manual' });
      const error = await env.cdek.register(shipment('ASYNC-2')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect((error as Error).message).toMatch(/not finished checking/);
      env.fake.settle('ASYNC-2');
      const found = await env.cdek.find(shipment('ASYNC-2'));
      expect(found?.providerNumber).toBe(env.fake.order('ASYNC-2')!.cdekNumber);
      expect(env.fake.registrations('ASYNC-2')).toBe(1);
    });

    it('a delayed check on CDEK\'s clock: polls see ACCEPTED until the clock passes it', async () => {
      env = await setup({ validation: { afterMs: 5_000 } }, { pollDelaysMs: [1, 1, 1], sleep: async () => env.clock.advance(2_000) });
      const registration = await env.cdek.register(shipment('ASYNC-3'));
      expect(registration.providerNumber).toMatch(/^\d{10}$/);
      expect(env.calls.filter((c) => c.method === 'GET').length).toBe(3);
    });

    it('an INVALID order ends in uploadingError with CDEK\'s message and code (errorCode 200), not retried', async () => {
      env = await setup();
      const ctx = env.app.shop;
      const { orderId } = await env.app.app.services.orders.create(ctx, orderCreateSchema.parse(cdekOrder('BAD-CITY', (o) => (o.recipient.city = 'Урюпинск'))));
      await env.app.app.outbox.drain();
      const row = await env.app.app.db.selectFrom('orders').selectAll().where('id', '=', Number(orderId)).executeTakeFirstOrThrow();
      expect(row.status_key).toBe('uploadingError');
      expect(row.status_description).toMatch(/recipient location not recognized.*v2_recipient_location_not_recognized/);
      const status = await env.app.app.db.selectFrom('order_statuses').selectAll().where('order_id', '=', Number(orderId)).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(status).toMatchObject({ key: 'uploadingError', error_code: '200', provider_code: 'v2_recipient_location_not_recognized' });
      expect(await env.app.app.outbox.state()).toMatchObject({ pending: 0 });
      // CDEK keeps the refused order; a lookup does not take it for a registration, so a corrected order can be sent.
      expect(env.fake.order('BAD-CITY')!.state).toBe('INVALID');
      expect(await env.cdek.find(shipment('BAD-CITY'))).toBeNull();
    });

    it('a lost reply: the outbox\'s next attempt looks the number up and never sends the create again', async () => {
      env = await setup({}, { client: { timeoutMs: 400 } });
      env.fake.failNext('hang-after', 1, /^POST \/v2\/orders$/);
      const ctx = env.app.shop;
      const { orderId } = await env.app.app.services.orders.create(ctx, orderCreateSchema.parse(cdekOrder('LOST-1')));
      await env.app.app.outbox.drain();
      expect(await env.app.app.outbox.state()).toEqual({ pending: 1, waitingForConnection: true });
      for (let pass = 0; pass < 5 && (await env.app.app.outbox.state()).pending > 0; pass++) {
        env.clock.advance(600_000); // past any backoff
        await env.app.app.outbox.drain();
      }
      const row = await env.app.app.db.selectFrom('orders').selectAll().where('id', '=', Number(orderId)).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status_key: 'uploaded', provider_number: env.fake.order('LOST-1')!.cdekNumber, additional_provider_number: env.fake.order('LOST-1')!.uuid });
      expect(env.fake.registrations('LOST-1')).toBe(1);
      expect(env.fake.stats.byRoute['POST /v2/orders']).toBe(1);
      expect(env.fake.stats.byRoute['GET /v2/orders']).toBeGreaterThanOrEqual(1); // the im_number lookup
      expect(env.fake.stats.duplicateRefusals).toBe(0);
    });

    it('a create CDEK refuses as a duplicate number adopts our own order; an old finished one is refused clearly', async () => {
      env = await setup();
      const first = await env.cdek.register(shipment('DUP-1'));
      expect(await env.cdek.register(shipment('DUP-1'))).toEqual(first);
      expect(env.fake.stats.duplicateRefusals).toBe(1);
      expect(env.fake.registrations('DUP-1')).toBe(1);

      env.fake.pushStatus('DUP-1', 'DELIVERED');
      const error = await env.cdek.register(shipment('DUP-1')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect((error as ProviderRejectedError).errors).toEqual([{ field: 'order.clientNumber', message: expect.stringMatching(/already has an order with this number/), key: 'provider.duplicateNumberField', params: expect.objectContaining({ service: { key: 'service.cdek' } }) }]);
    });

    it('local checks catch what CDEK would refuse: tariff against the types, COD that does not add up, a point it does not know', async () => {
      env = await setup();
      const order = orderCreateSchema.parse(
        cdekOrder('CHECK-1', (o) => {
          o.order.tariffId = 136; // office → office
          o.cost.codCost = 100;
        }),
      );
      expect((await env.cdek.check(order)).map((e) => e.field).sort()).toEqual(['cost.codCost', 'order.deliveryType', 'order.pickupType']);
      const toPoint = orderCreateSchema.parse(
        cdekOrder('CHECK-2', (o) => {
          o.order.deliveryType = 2;
          o.order.tariffId = 138;
          o.order.pointOutId = 999;
        }),
      );
      expect(await env.cdek.check(toPoint)).toEqual([{ field: 'order.pointOutId', message: expect.stringMatching(/not a CDEK pickup point known to ShipDesk/) }]);
      expect(await env.cdek.check(orderCreateSchema.parse(cdekOrder('CHECK-3')))).toEqual([]);
    });
  });

  describe('changes after registration', () => {
    it('update: accepted while CREATED (CDEK checks it asynchronously too); refused with v2_update_forbidden once handed over', async () => {
      env = await setup();
      const { providerNumber } = await env.cdek.register(shipment('UPD-1'));
      await env.cdek.update(providerNumber, shipment('UPD-1', (o) => (o.order.comment = 'Домофон 28')));
      expect(env.fake.order('UPD-1')!.body.comment).toBe('Домофон 28');

      env.fake.pushStatus('UPD-1', 'RECEIVED_AT_SHIPMENT_WAREHOUSE');
      const error = await env.cdek.update(providerNumber, shipment('UPD-1', (o) => (o.order.comment = 'поздно'))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect(error).toMatchObject({ providerCode: 'v2_update_forbidden', description: expect.stringMatching(/no longer accepts changes/) });
      expect(env.fake.order('UPD-1')!.body.comment).toBe('Домофон 28');
    });

    it('an update CDEK finds invalid is refused with its message', async () => {
      env = await setup();
      const { providerNumber } = await env.cdek.register(shipment('UPD-2'));
      const error = await env.cdek.update(providerNumber, shipment('UPD-2', (o) => (o.recipient.city = 'Урюпинск'))).catch((e: unknown) => e);
      expect(error).toMatchObject({ providerCode: 'v2_recipient_location_not_recognized' });
    });

    it('remove: only while CREATED (→ REMOVED), harmless to repeat; an order on its way must be canceled instead', async () => {
      env = await setup();
      const { providerNumber } = await env.cdek.register(shipment('DEL-1'));
      await env.cdek.remove(providerNumber);
      expect(env.fake.order('DEL-1')!.status).toBe('REMOVED');
      await env.cdek.remove(providerNumber);
      expect(env.fake.stats.byRoute['DELETE /v2/orders/{uuid}']).toBe(1);

      const second = await env.cdek.register(shipment('DEL-2'));
      env.fake.pushStatus('DEL-2', 'RECEIVED_AT_SHIPMENT_WAREHOUSE');
      const error = await env.cdek.remove(second.providerNumber).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect((error as Error).message).toMatch(/cancel it instead/);
    });

    it('cancel: a CREATED order is deleted, one on its way is refused (NOT_DELIVERED, reason 11); repeating is harmless; a delivered one cannot be', async () => {
      env = await setup();
      const created = await env.cdek.register(shipment('CAN-1'));
      await env.cdek.cancel(created.providerNumber);
      expect(env.fake.order('CAN-1')!.status).toBe('REMOVED');

      const moving = await env.cdek.register(shipment('CAN-2'));
      env.fake.pushStatus('CAN-2', 'RECEIVED_AT_SHIPMENT_WAREHOUSE');
      await env.cdek.cancel(moving.providerNumber);
      expect(env.fake.order('CAN-2')!.status).toBe('NOT_DELIVERED');
      await env.cdek.cancel(moving.providerNumber);
      expect(env.fake.stats.byRoute['POST /v2/orders/{uuid}/refusal']).toBe(1);

      const delivered = await env.cdek.register(shipment('CAN-3'));
      env.fake.pushStatus('CAN-3', 'DELIVERED');
      await expect(env.cdek.cancel(delivered.providerNumber)).rejects.toMatchObject({ providerCode: 'v2_entity_has_final_status' });
    });
  });

  describe('tracking', () => {
    it('maps the history over CDEK\'s clock: sorted, deleted statuses skipped, an unknown code is "in transit"', async () => {
      const hour = 3_600_000;
      env = await setup({
        timeline: [
          { afterMs: 2 * hour, code: 'RECEIVED_AT_SHIPMENT_WAREHOUSE', city: 'Москва' },
          { afterMs: 10 * hour, code: 'SENT_TO_RECIPIENT_CITY', city: 'Москва' },
          { afterMs: 30 * hour, code: 'ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE', city: 'Санкт-Петербург' },
          { afterMs: 40 * hour, code: 'TAKEN_BY_COURIER', city: 'Санкт-Петербург' },
          { afterMs: 44 * hour, code: 'DELIVERED', city: 'Санкт-Петербург' },
        ],
      });
      const a = await env.cdek.register(shipment('TRK-1'));
      const b = await env.cdek.register(shipment('TRK-2'));
      env.clock.advance(12 * hour);
      env.fake.pushStatus('TRK-1', 'BRAND_NEW_STATUS_CODE');
      env.fake.pushStatus('TRK-1', 'DELIVERED', { deleted: true });
      const request = shipment('TRK-1');
      let tracked = await env.cdek.track([
        { providerNumber: a.providerNumber, request, additionalProviderNumber: a.additionalProviderNumber }, // by uuid
        { providerNumber: b.providerNumber, request: shipment('TRK-2') }, // by CDEK number
        { providerNumber: '9999999999', request }, // unknown to CDEK: left out
      ]);
      expect(tracked.get(a.providerNumber)!.map((s) => [s.key, s.providerCode])).toEqual([
        ['uploaded', 'ACCEPTED'],
        ['uploaded', 'CREATED'],
        ['onPointIn', 'RECEIVED_AT_SHIPMENT_WAREHOUSE'],
        ['onWay', 'SENT_TO_RECIPIENT_CITY'],
        ['onWay', 'BRAND_NEW_STATUS_CODE'],
      ]);
      expect(tracked.get(b.providerNumber)!.at(-1)).toMatchObject({ key: 'onWay', providerDescription: 'Москва' });
      expect(tracked.has('9999999999')).toBe(false);

      env.clock.advance(40 * hour);
      tracked = await env.cdek.track([{ providerNumber: b.providerNumber, request: shipment('TRK-2') }]);
      expect(tracked.get(b.providerNumber)!.slice(-3).map((s) => s.key)).toEqual(['onPointOut', 'delivering', 'delivered']);
    });

    it('when CDEK cannot be reached for any order, tracking says so instead of reporting nothing', async () => {
      env = await setup();
      const a = await env.cdek.register(shipment('TRK-3'));
      env.fake.failNext('503', 2);
      await expect(env.cdek.track([{ providerNumber: a.providerNumber, request: shipment('TRK-3') }])).rejects.toBeInstanceOf(ProviderUnavailableError);
    });
  });

  describe('offices', () => {
    it('syncs every page (X-Total-Pages) into the points table; /lists points then serve CDEK offline; ids survive a re-sync', async () => {
      env = await setup({ offices: generateOffices(2345) }, { officesPageSize: 500 });
      const result = await syncCarrierPoints({ reference: env.app.app.stores.reference, clock: env.clock }, env.cdek.referenceData.points);
      expect(result).toEqual({ total: 2345, pages: 5, disabled: 0, skipped: 0 });
      expect(env.fake.stats.byRoute['GET /v2/deliverypoints']).toBe(5);

      await env.fake.close(); // offline from here on
      const kazan = await env.app.app.dispatch('lists.points', env.app.shop, { providerKey: 'cdek', city: 'казань', limit: 500 });
      expect(kazan).toMatchObject({ ok: true, value: { total: 469 } });
      const first = (kazan as { value: { rows: { id: number; code: string; type: number; worktime: object }[] } }).value.rows[0];
      expect(first).toMatchObject({ id: expect.any(Number), code: expect.stringMatching(/^KZN/), providerKey: 'cdek' });
      expect(first.id).toBeGreaterThan(CDEK_POINT_ID_BASE);
      const lockers = await env.app.app.dispatch('lists.points', env.app.shop, { providerKey: 'cdek', types: [2], limit: 1 });
      expect(lockers).toMatchObject({ ok: true, value: { total: 469, rows: [{ type: 2, limits: { maxSizeA: 60, maxSizeB: 40, maxSizeC: 40, maxWeight: 20000 } }] } });
    });

    it('a re-sync keeps ids, disables offices CDEK stopped listing, and runs only when the last one is a day old', async () => {
      env = await setup({ offices: generateOffices(30) }, { officesPageSize: 10 });
      await syncCarrierPoints({ reference: env.app.app.stores.reference, clock: env.clock }, env.cdek.referenceData.points);
      const before = await env.app.app.dispatch('lists.points', env.app.shop, { providerKey: 'cdek', search: 'MSK0006' });
      env.fake.setOffices(generateOffices(25));
      expect(await syncCarrierPointsIfStale({ reference: env.app.app.stores.reference, clock: env.clock }, env.cdek.referenceData.points)).toBeNull();
      env.clock.advance(24 * 3_600_000);
      expect(await syncCarrierPointsIfStale({ reference: env.app.app.stores.reference, clock: env.clock }, env.cdek.referenceData.points)).toEqual({ total: 25, pages: 3, disabled: 5, skipped: 0 });
      const after = await env.app.app.dispatch('lists.points', env.app.shop, { providerKey: 'cdek', search: 'MSK0006' });
      expect(after).toEqual(before);
      const all = await env.app.app.dispatch('lists.points', env.app.shop, { providerKey: 'cdek', includeDisabled: true, limit: 100 });
      expect(all).toMatchObject({ ok: true, value: { total: 30 } });
      const enabled = await env.app.app.dispatch('lists.points', env.app.shop, { providerKey: 'cdek', limit: 100 });
      expect(enabled).toMatchObject({ ok: true, value: { total: 25 } });
    });

    it('an order to a synced point sends its CDEK code as delivery_point, from a synced office as shipment_point', async () => {
      env = await setup({ offices: generateOffices(10) });
      await syncCarrierPoints({ reference: env.app.app.stores.reference, clock: env.clock }, env.cdek.referenceData.points);
      const page = (await env.app.app.dispatch('lists.points', env.app.shop, { providerKey: 'cdek', limit: 10 })) as { value: { rows: { id: number; code: string; city: string; type: number; availableOperation: number }[] } };
      const pvzIn = page.value.rows.find((p) => p.city === 'Москва' && p.availableOperation === 3)!;
      const pvzOut = page.value.rows.find((p) => p.city === 'Санкт-Петербург' && p.type === 1)!;
      const request = shipment('PT-1', (o) => {
        o.order.tariffId = 136;
        o.order.pickupType = 2;
        o.order.deliveryType = 2;
        o.order.pointInId = pvzIn.id;
        o.order.pointOutId = pvzOut.id;
      });
      expect(await env.cdek.check(request.order)).toEqual([]);
      await env.cdek.register(request);
      expect(env.fake.order('PT-1')!.body).toMatchObject({ shipment_point: pvzIn.code, delivery_point: pvzOut.code });
      expect(env.fake.order('PT-1')!.body).not.toHaveProperty('to_location');
    });
  });

  describe('calculator, intervals and labels', () => {
    it('the tariff list becomes calculator tariffs; estimated intervals become toIntervals', async () => {
      env = await setup();
      const tariffs = await env.cdek.calculate({ from: { countryCode: 'RU', city: 'Москва' }, to: { countryCode: 'RU', city: 'Казань' }, places: [{ weight: 1500, length: 20, width: 20, height: 20 }] });
      expect(tariffs.map((t) => t.tariffId)).toEqual([136, 137, 138, 139, 366, 368]);
      expect(tariffs.find((t) => t.tariffId === 137)).toMatchObject({ pickupTypes: [2], deliveryTypes: [1], deliveryCost: expect.any(Number), daysMin: expect.any(Number) });
      const only = await env.cdek.calculate({ from: { city: 'Москва' }, to: { city: 'Казань' }, places: [{ weight: 1500 }], tariffIds: [139] });
      expect(only.map((t) => t.tariffId)).toEqual([139]);

      const intervals = await env.cdek.estimatedIntervals({ from: { city: 'Москва' }, to: { city: 'Казань', addressString: 'ул. Баумана, 1' }, tariffId: 139, pickupAt: Date.UTC(2026, 2, 1, 9) });
      expect(intervals).toEqual([
        { date: '2026-03-02', from: '09:00', to: '14:00' },
        { date: '2026-03-02', from: '14:00', to: '18:00' },
        { date: '2026-03-03', from: '09:00', to: '14:00' },
        { date: '2026-03-03', from: '14:00', to: '18:00' },
        { date: '2026-03-04', from: '09:00', to: '14:00' },
        { date: '2026-03-04', from: '14:00', to: '18:00' },
      ]);
    });

    it('barcode labels come back as PDF bytes through the asynchronous print form', async () => {
      env = await setup({ printPollsUntilReady: 3 });
      const a = await env.cdek.register(shipment('LBL-1'));
      const b = await env.cdek.register(shipment('LBL-2'));
      const pdf = await env.cdek.barcodesPdf([a.additionalProviderNumber!, b.additionalProviderNumber!], 'A6');
      const text = Buffer.from(pdf).toString('latin1');
      expect(text.startsWith('%PDF-')).toBe(true);
      expect(text).toContain(a.providerNumber);
      expect(text).toContain(b.providerNumber);
      expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
      expect(env.fake.stats.byRoute['GET /v2/print/barcodes/{uuid}']).toBe(3);
      await expect(env.cdek.barcodesPdf([])).rejects.toBeInstanceOf(ProviderRejectedError);
    });
  });

  describe('errors in every form', () => {
    it('top-level errors[] (calculator) → a refusal with CDEK\'s code', async () => {
      env = await setup();
      const error = await env.cdek.calculate({ from: { city: 'Москва' }, to: { city: 'Урюпинск' }, places: [{ weight: 100 }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect(error).toMatchObject({ providerCode: 'v2_recipient_location_not_recognized' });
    });

    it('requests[].errors (a refused create) → a refusal with CDEK\'s code', async () => {
      env = await setup();
      const client = createCdekClient({ baseUrl: env.fake.url, ...FAKE_TEST_ACCOUNT, clock: env.clock });
      const error = await client.call('POST', '/orders', { body: { type: 1 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CdekApiError);
      expect(error).toMatchObject({ form: 'requests', code: 'v2_field_is_empty', httpStatus: 400 });
    });

    it('OAuth error → the reason, as CdekAuthError', async () => {
      env = await setup();
      const client = createCdekClient({ baseUrl: env.fake.url, clientId: 'nobody', clientSecret: 'nothing', clock: env.clock });
      await expect(client.authenticate()).rejects.toThrow(/invalid_client \(Bad credentials\)/);
    });

    it.each([
      ['429', /HTTP 429.*retry after 1 s/],
      ['500', /HTTP 500/],
      ['503', /HTTP 503/],
      ['hang', /did not answer .* within 2000 ms/],
      ['reset', /could not be reached/],
    ] as const)('%s → ProviderUnavailableError (retried later), nothing registered', async (kind, message) => {
      env = await setup({}, { client: { timeoutMs: 2000 } });
      env.fake.failNext(kind, 1, /^POST \/v2\/orders$/);
      const error = await env.cdek.register(shipment(`FAULT-${kind}`)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect((error as Error).message).toMatch(message);
      expect(env.fake.registrations(`FAULT-${kind}`)).toBe(0);
    });

    it('decides by code, not HTTP status: a 200 carrying errors[] is an error, a 404 v2_entity_not_found is "not there"', async () => {
      const clock = manualClock();
      const answers: [number, unknown][] = [
        [200, { access_token: 't', expires_in: 3600 }],
        [200, { errors: [{ code: 'v2_field_is_empty', message: 'packages' }] }],
      ];
      const fetchStub = async () => {
        const [status, body] = answers.shift()!;
        return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      };
      const client = createCdekClient({ baseUrl: 'http://cdek.invalid/v2', clientId: 'a', clientSecret: 'b', clock, fetch: fetchStub });
      await expect(client.call('POST', '/calculator/tarifflist', { body: {} })).rejects.toMatchObject({ form: 'errors', code: 'v2_field_is_empty', httpStatus: 200 });

      env = await setup();
      expect(await env.cdek.find(shipment('NEVER-SENT'))).toBeNull();
    });
  });
  describe('courier requests (intakes)', () => {
    /** A call for Monday 2 March 2026 (the clock is Sunday 1 March), through the app's courier service. */
    const callFor = (orderIds: string[], patch: Record<string, unknown> = {}) =>
      courierCallCreateSchema.parse({
        providerKey: 'cdek', date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', weight: 2500, length: 40, width: 30, height: 20, orderIds,
        city: 'Москва', postIndex: '125009', street: 'ул. Тверская', house: '7', office: '12', companyName: 'ООО «Ромашка»', contactName: 'Иван Петров',
        phone: '+79161234567', comment: 'Въезд со двора', ...patch,
      });

    it('a call for one registered order names it; CDEK numbers the request, and its delete cancels it once', async () => {
      env = await setup();
      const { orderId } = await env.app.app.services.orders.create(env.app.shop, orderCreateSchema.parse(cdekOrder('IN-1')));
      await env.app.app.outbox.drain();
      const order = await env.app.app.db.selectFrom('orders').selectAll().where('id', '=', Number(orderId)).executeTakeFirstOrThrow();

      const answer = await env.app.app.services.courier.create(env.app.shop, callFor([orderId]));
      expect(answer).toMatchObject({ providerNumber: expect.stringMatching(/^\d{7}$/), additionalProviderNumber: expect.stringMatching(/^[0-9a-f-]{36}$/), error: null });
      const intake = env.fake.intake(answer.additionalProviderNumber!)!;
      expect(intake).toMatchObject({ state: 'SUCCESSFUL', number: Number(answer.providerNumber) });
      expect(intake.body).toMatchObject({
        cdek_number: order.provider_number, order_uuid: order.additional_provider_number, intake_date: '2026-03-02', intake_time_from: '10:00', intake_time_to: '14:00',
        weight: 2500, length: 40, comment: 'Въезд со двора', sender: { company: 'ООО «Ромашка»', name: 'Иван Петров', phones: [{ number: '+79161234567' }] },
        from_location: { country_code: 'RU', city: 'Москва', postal_code: '125009', address: 'ул. Тверская, д. 7, оф. 12' },
      });
      expect(env.calls.map((c) => `${c.method} ${c.path.replace(/[0-9a-f-]{36}/, '{uuid}')}`).filter((c) => c.includes('intakes'))).toEqual(['POST /intakes', 'GET /intakes/{uuid}']);

      await env.app.app.services.courier.cancel(env.app.shop, answer.id);
      expect(env.fake.intake(answer.additionalProviderNumber!)!.statuses.map((s) => s.code)).toEqual(['ACCEPTED', 'CREATED', 'REMOVED']);
      // CDEK no longer has it: a repeated delete at CDEK is taken as done, and the app answers 040081 for its own second cancel.
      await env.cdek.courierCalls.cancel({ companyId: 1, providerNumber: answer.providerNumber!, additionalProviderNumber: answer.additionalProviderNumber });
      await expect(env.app.app.services.courier.cancel(env.app.shop, answer.id)).rejects.toMatchObject({ body: { code: '040081' } });
    });

    it('a call without orders carries the sender and the address; CDEK\'s refusal comes back with its words', async () => {
      env = await setup();
      const general = await env.app.app.services.courier.create(env.app.shop, callFor([]));
      expect(env.fake.intake(general.additionalProviderNumber!)!.body).not.toHaveProperty('cdek_number');
      expect(general.error).toBeNull();

      const short = await env.app.app.services.courier.create(env.app.shop, callFor([], { timeEnd: '11:00' }));
      expect(short).toMatchObject({ providerNumber: null, error: 'CDEK refused the courier request: the interval must be at least 3 hours (v2_intake_time_interval)' });
      const listed = await env.app.app.services.courier.list(env.app.shop, { limit: 10, offset: 0 });
      expect(listed.rows.map((r) => r.state)).toEqual(['refused', 'accepted']);
    });

    it('a request CDEK has not checked yet is referred to by its uuid; CDEK down is a failed call, kept', async () => {
      env = await setup({}, { pollDelaysMs: [] });
      const pending = await env.app.app.services.courier.create(env.app.shop, callFor([]));
      expect(pending).toMatchObject({ providerNumber: null, additionalProviderNumber: expect.stringMatching(/^[0-9a-f-]{36}$/), error: null });
      env.fake.failNext('500', 1, /intakes/);
      const down = await env.app.app.services.courier.create(env.app.shop, callFor([]));
      expect(down).toMatchObject({ providerNumber: null, error: expect.stringMatching(/^The delivery service could not be reached: CDEK answered HTTP 500 to POST \/intakes/) });
      expect((await env.app.app.services.courier.list(env.app.shop, { limit: 1, offset: 0 })).rows[0].state).toBe('failed');
    });

    /** What the shop sees: the kept calls (listing asks CDEK nothing). */
    const listed = async () => (await env.app.app.services.courier.list(env.app.shop, { limit: 10, offset: 0 })).rows;
    const intakeQuestions = () => env.calls.filter((c) => c.method === 'GET' && c.path.includes('intakes')).length;
    /** The UI's "refresh now": the scheduler's run for the company, statuses and then courier calls. */
    const refreshNow = () => env.app.app.services.scheduler.refreshNow(env.app.shop.companyId);

    it('a request CDEK numbers later shows no number at first, and its number once the scheduled refresh asked CDEK; listing asks nothing', async () => {
      env = await setup({ intakes: { checkAfterMs: 10 * 60_000 } }, { pollDelaysMs: [0] });
      const call = await env.app.app.services.courier.create(env.app.shop, callFor([]));
      expect(call).toMatchObject({ providerNumber: null, error: null });
      const askedWhenCreated = intakeQuestions();
      expect(await listed()).toMatchObject([{ id: call.id, state: 'accepted', providerNumber: null }]);

      env.clock.advance(10 * 60_000);
      expect(await listed()).toMatchObject([{ state: 'accepted', providerNumber: null }]);
      expect(intakeQuestions()).toBe(askedWhenCreated); // the list read what is kept, twice, without a GET
      expect(env.fake.intake(call.additionalProviderNumber!)?.number ?? 'not numbered yet').toBe('not numbered yet');

      // The background schedule: its first run a minute after start asks CDEK about the open call.
      await env.app.app.services.scheduler.start();
      env.clock.advance(60_000);
      env.timers.fireDue();
      await env.app.app.services.scheduler.idle();
      expect(intakeQuestions()).toBe(askedWhenCreated + 1);
      const [numbered] = await listed();
      expect(numbered).toMatchObject({ state: 'accepted', providerNumber: String(env.fake.intake(call.additionalProviderNumber!)!.number) });
      expect(numbered.providerNumber).toMatch(/^\d{7}$/);
      await env.app.app.services.scheduler.stop();

      // Kept: the number stays, and the call is canceled by it.
      await env.app.app.services.courier.cancel(env.app.shop, call.id);
      expect(await listed()).toMatchObject([{ state: 'canceled', providerNumber: numbered.providerNumber }]);
    });

    it('a request CDEK finds invalid after it answered shows refused with CDEK\'s words; one CDEK removes shows canceled', async () => {
      env = await setup({ intakes: { timeline: [{ afterMs: 60_000, code: 'APPOINTED_COURIER' }, { afterMs: 120_000, code: 'REMOVED' }] } }, { pollDelaysMs: [] });
      const events: unknown[] = [];
      env.app.app.events.subscribe((e) => events.push(e));
      const invalid = await env.app.app.services.courier.create(env.app.shop, callFor([], { timeEnd: '11:00' }));
      expect(invalid).toMatchObject({ providerNumber: null, error: null });
      await refreshNow();
      expect(await listed()).toMatchObject([{ state: 'refused', providerNumber: null, error: 'CDEK refused the courier request: the interval must be at least 3 hours (v2_intake_time_interval)' }]);
      expect(events).toContainEqual({ type: 'courier.changed', companyId: env.app.shop.companyId });

      const removed = await env.app.app.services.courier.create(env.app.shop, callFor([]));
      await refreshNow();
      expect((await listed())[0]).toMatchObject({ id: removed.id, state: 'accepted', providerNumber: expect.stringMatching(/^\d{7}$/), canceled: null });
      env.clock.advance(60_000);
      await refreshNow();
      expect((await listed())[0]).toMatchObject({ state: 'accepted' }); // a courier appointed: the call stands
      env.clock.advance(60_000);
      expect((await listed())[0]).toMatchObject({ state: 'accepted' }); // CDEK removed it, but nobody asked yet
      await refreshNow();
      expect((await listed())[0]).toMatchObject({ state: 'canceled', canceled: expect.any(String) });
      await expect(env.app.app.services.courier.cancel(env.app.shop, removed.id)).rejects.toMatchObject({ body: { code: '040081' } });
    });

    it('CDEK down during the refresh leaves the open call as it was kept, for the next run', async () => {
      env = await setup({ intakes: { checkAfterMs: 10 * 60_000 } }, { pollDelaysMs: [0] });
      const call = await env.app.app.services.courier.create(env.app.shop, callFor([]));
      env.clock.advance(10 * 60_000);
      env.fake.failNext('500', 1, /intakes/);
      await refreshNow();
      expect(await listed()).toMatchObject([{ id: call.id, state: 'accepted', providerNumber: null }]);
      await refreshNow();
      expect((await listed())[0].providerNumber).toMatch(/^\d{7}$/);
    });
  });
});
