import { createTestApp } from '../../../../test/helpers/test-app';
import type { CourierCallRequest } from '../courier-call';
import { ProviderRejectedError } from '../provider';
import { dayRefusals, sandboxCourierRules, windowRefusals } from './courier';

const express = sandboxCourierRules['sandbox-express'];

/** A call for Tuesday 3 March 2026, asked on Monday 2 March at 10:00. */
const request = (patch: Partial<CourierCallRequest> = {}): CourierCallRequest => ({
  companyId: 1,
  callId: 17,
  date: '2026-03-03',
  timeStart: '10:00',
  timeEnd: '14:00',
  weight: 1500,
  address: { countryCode: 'RU', city: 'Казань' },
  contactName: 'Иван',
  phone: '+79160000000',
  shipments: [],
  today: '2026-03-02',
  hour: 10,
  ...patch,
});

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as ProviderRejectedError);

describe('courier calls of the built-in services', () => {
  describe('the day', () => {
    it('today is taken until the cut-off hour, then refused; tomorrow still is', () => {
      expect(dayRefusals(express, '2026-03-02', '2026-03-02', 13)).toEqual([]);
      expect(dayRefusals(express, '2026-03-02', '2026-03-02', 14)).toMatchObject([{ field: 'date', message: 'calls for today are taken until 14:00; choose another day' }]);
      expect(dayRefusals(express, '2026-03-03', '2026-03-02', 23)).toEqual([]);
      expect(dayRefusals(sandboxCourierRules['sandbox-lockers'], '2026-03-02', '2026-03-02', 12)).toHaveLength(1);
    });

    it('no courier on Sundays or public holidays, none for a day that has passed or too far ahead', () => {
      expect(dayRefusals(express, '2026-03-08', '2026-03-02', 9)[0].message).toBe('couriers do not come on Sundays (2026-03-08)');
      expect(dayRefusals(express, '2026-03-09', '2026-03-02', 9)).toEqual([]);
      expect(dayRefusals(express, '2026-05-09', '2026-05-04', 9)[0].message).toBe('2026-05-09 is a public holiday; couriers do not come');
      expect(dayRefusals(express, '2026-03-01', '2026-03-02', 9)[0].message).toBe('2026-03-01 has passed');
      expect(dayRefusals(express, '2026-03-17', '2026-03-02', 9)[0].message).toBe('calls are taken at most 14 days ahead (until 2026-03-16)');
    });

    it('the answer depends on the date alone: the same call gets the same answer every time', () => {
      const answers = Array.from({ length: 5 }, () => JSON.stringify([dayRefusals(express, '2026-03-08', '2026-03-02', 9), windowRefusals(express, '10:00', '12:00')]));
      expect(new Set(answers).size).toBe(1);
    });
  });

  it('the window lies within working hours and lasts at least three hours', () => {
    expect(windowRefusals(express, '09:00', '12:00')).toEqual([]);
    expect(windowRefusals(express, '10:00', '12:30')).toMatchObject([{ field: 'timeEnd', message: 'the window must be at least 3 hours (10:00–12:30 is shorter)' }]);
    expect(windowRefusals(express, '08:00', '21:00').map((e) => e.field)).toEqual(['timeStart', 'timeEnd']);
  });

  describe('as carriers', () => {
    let env: Awaited<ReturnType<typeof createTestApp>>;
    beforeAll(async () => {
      env = await createTestApp();
    });
    afterAll(() => env.close());
    const calls = (key: string) => env.app.providers.get(key)!.courierCalls!;

    it('an accepted call gets a number with the service prefix, the day and our id', async () => {
      expect(await calls('sandbox-express').create(request())).toEqual({ providerNumber: 'SBEC20260303000017' });
    });

    it('a city the service does not serve is refused; lockers serve the cities of their points', async () => {
      const error = await refusal(calls('sandbox-express').create(request({ address: { countryCode: 'RU', city: 'Мурманск' } })));
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect(error!.errors).toMatchObject([{ field: 'city', message: 'sandbox-express does not collect parcels in Мурманск' }]);
      expect(await calls('sandbox-lockers').create(request({ address: { countryCode: 'RU', city: 'Москва' } }))).toEqual({ providerNumber: 'SBLC20260303000017' });
    });

    it('every reason is named at once', async () => {
      const error = await refusal(calls('sandbox-express').create(request({ date: '2026-03-08', timeStart: '19:00', timeEnd: '21:00', address: { countryCode: 'RU', city: 'Мурманск' } })));
      expect(error!.errors.map((e) => e.field)).toEqual(['date', 'timeEnd', 'timeEnd', 'city']);
    });

    it('the post takes parcels at its counters only: it declares no courier calls', () => {
      expect(env.app.providers.get('sandbox-post')!.courierCalls).toBeUndefined();
    });

    it('a call is canceled until its day has passed; a second cancel succeeds too', async () => {
      const today = new Date(env.clock.now()).toISOString().slice(0, 10).replaceAll('-', '');
      const ref = { companyId: 1, providerNumber: `SBEC${today}000001` };
      await calls('sandbox-express').cancel(ref);
      await calls('sandbox-express').cancel(ref);
      const error = await refusal(calls('sandbox-express').cancel({ companyId: 1, providerNumber: 'SBEC20200101000001' }));
      expect(error?.message).toBe('sandbox-express cannot cancel courier call SBEC20200101000001: its day (2020-01-01) has passed');
    });
  });
});
