import { startTestServer, type TestServer } from '../helpers/test-server';

/** A moment on the shop's own clock in March 2026 (2 March is a Monday, 8 March a Sunday). */
const local = (day: number, hour: number) => new Date(2026, 2, day, hour).getTime();

type Interval = { date: string | null; from: string; to: string };
type Tariffs = { providerKey: string; tariffs: { tariffId: number; toIntervals: Interval[] }[] }[];
const moscowTo = (city: string, patch: Record<string, unknown> = {}) => ({ from: { city: 'Москва' }, to: { city }, ...patch });
const intervalsOf = (groups: Tariffs, tariffId: number) => groups.flatMap((g) => g.tariffs).find((t) => t.tariffId === tariffId)?.toIntervals;
const days = (intervals: Interval[] | undefined) => [...new Set(intervals?.map((i) => i.date))];
const postFixed = [
  { date: null, from: '09:00', to: '14:00' },
  { date: null, from: '14:00', to: '18:00' },
  { date: null, from: '18:00', to: '21:00' },
];

describe('POST /calculator/intervals', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  beforeEach(() => server.clock.set(local(2, 10)));
  afterAll(() => server.close());
  const ask = (body: unknown, path = '/calculator/intervals') => server.call('POST', path, { body });

  it('answers the door tariffs of the services with fixed and dynamic intervals only', async () => {
    const res = await ask(moscowTo('Санкт-Петербург'));
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['deliveryToDoor']);
    expect(res.json.deliveryToDoor.map((g: Tariffs[number]) => [g.providerKey, g.tariffs.map((t) => t.tariffId)])).toEqual([
      ['sandbox-express', [102, 103]],
      ['sandbox-post', [202]],
    ]);
    expect(res.json.deliveryToDoor[1].tariffs[0]).toEqual({
      tariffProviderId: 'SBP202',
      tariffId: 202,
      tariffName: 'Посылка до двери',
      pickupTypes: [2],
      deliveryTypes: [1],
      toIntervals: postFixed,
    });
  });

  it('dynamic: a week of dated slots from the earliest delivery day, by the size of the city', async () => {
    const big = intervalsOf((await ask(moscowTo('Санкт-Петербург'))).json.deliveryToDoor, 102)!;
    expect(days(big)).toEqual(['2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09']);
    expect(big.filter((i) => i.date === '2026-03-03')).toEqual([
      { date: '2026-03-03', from: '09:00', to: '12:00' },
      { date: '2026-03-03', from: '12:00', to: '15:00' },
      { date: '2026-03-03', from: '15:00', to: '18:00' },
      { date: '2026-03-03', from: '18:00', to: '21:00' },
    ]);
    expect(big.filter((i) => i.date === '2026-03-08').map((i) => `${i.from}-${i.to}`)).toEqual(['10:00-14:00', '14:00-18:00']);

    const smaller = intervalsOf((await ask(moscowTo('Тверь'))).json.deliveryToDoor, 102)!;
    expect(smaller).toHaveLength(12); // six days of two slots, none on Sunday
    expect(days(smaller)).not.toContain('2026-03-08');

    const unknown = intervalsOf((await ask(moscowTo('Урюпинск'))).json.deliveryToDoor, 102)!;
    expect(unknown).toEqual(['2026-03-05', '2026-03-06', '2026-03-09', '2026-03-10', '2026-03-11'].map((date) => ({ date, from: '10:00', to: '18:00' })));
  });

  it('honours pickupDate, and a pickup asked for today after 14:00 leaves tomorrow', async () => {
    const later = intervalsOf((await ask(moscowTo('Санкт-Петербург', { pickupDate: '2026-03-10' }))).json.deliveryToDoor, 103)!;
    expect(days(later)[0]).toBe('2026-03-11');
    server.clock.set(local(2, 15));
    for (const body of [moscowTo('Санкт-Петербург'), moscowTo('Санкт-Петербург', { pickupDate: '2026-03-02' })]) {
      expect(days(intervalsOf((await ask(body)).json.deliveryToDoor, 102))[0]).toBe('2026-03-04');
    }
  });

  it('with deliveryDate the dynamic service answers only that day (none before it can arrive); fixed ones ignore it', async () => {
    const res = await ask(moscowTo('Санкт-Петербург', { deliveryDate: '2026-03-20' }));
    expect(days(intervalsOf(res.json.deliveryToDoor, 102))).toEqual(['2026-03-20']);
    expect(intervalsOf(res.json.deliveryToDoor, 202)).toEqual(postFixed);
    const tooSoon = await ask(moscowTo('Владивосток', { pickupDate: '2026-03-03', deliveryDate: '2026-03-04' }));
    expect(intervalsOf(tooSoon.json.deliveryToDoor, 102)).toEqual([]);
  });

  it('a body with neither place still answers: the dynamic service for a place it does not know', async () => {
    const res = await ask({ pickupDate: '2026-03-02', deliveryDate: '2026-03-06' });
    expect(intervalsOf(res.json.deliveryToDoor, 102)).toEqual([{ date: '2026-03-06', from: '10:00', to: '18:00' }]);
    expect(intervalsOf(res.json.deliveryToDoor, 202)).toEqual(postFixed);
    expect((await ask({})).status).toBe(200);
  });

  it('narrows by providerKeys, tariffIds and pickupTypes; a service without intervals answers nothing', async () => {
    const keysOf = async (patch: Record<string, unknown>) =>
      (await ask(moscowTo('Казань', patch))).json.deliveryToDoor.map((g: Tariffs[number]) => [g.providerKey, g.tariffs.map((t) => t.tariffId)]);
    expect(await keysOf({ providerKeys: ['sandbox-post'] })).toEqual([['sandbox-post', [202]]]);
    expect(await keysOf({ tariffIds: [103] })).toEqual([['sandbox-express', [103]]]);
    expect(await keysOf({ pickupTypes: [2] })).toEqual([['sandbox-express', [102]], ['sandbox-post', [202]]]);
    expect(await keysOf({ providerKeys: ['sandbox-lockers'] })).toEqual([]);
  });

  it('answers in XML, a fixed interval with an empty date', async () => {
    const body = '<request><to><city>Казань</city></to><providerKeys><item>sandbox-post</item></providerKeys></request>';
    const res = await server.call('POST', '/v1/calculator/intervals', { raw: body, headers: { 'Content-Type': 'application/xml', Accept: 'application/xml' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      '<toIntervals><item><date/><from>09:00</from><to>14:00</to></item><item><date/><from>14:00</from><to>18:00</to></item><item><date/><from>18:00</from><to>21:00</to></item></toIntervals>',
    );
  });

  describe('validation errors are 040003', () => {
    it.each<[string, unknown, string]>([
      ['a pickup date in the past', { pickupDate: '2026-03-01' }, 'pickupDate'],
      ['a delivery date before the pickup', { pickupDate: '2026-03-05', deliveryDate: '2026-03-04' }, 'deliveryDate'],
      ['a delivery date before today', { deliveryDate: '2026-03-01' }, 'deliveryDate'],
      ['a delivery date that is not one', { deliveryDate: '2026-04-31' }, 'deliveryDate'],
      ['an unknown delivery service', { providerKeys: ['teleport'] }, 'providerKeys.0'],
      ['pickupType 5', { pickupTypes: [5] }, 'pickupTypes.0'],
      ['a negative codCost', { codCost: -1 }, 'codCost'],
      ['a place without a city', { to: { countryCode: 'RU' } }, 'to.city'],
    ])('%s', async (_name, body, field) => {
      const res = await ask(body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040003', errors: [{ field, message: expect.any(String) }] });
    });
  });

  it('the calculator.intervals command answers the same for the UI', async () => {
    const res = await server.command('calculator.intervals', moscowTo('Казань'));
    expect(res.json).toEqual({ ok: true, value: (await ask(moscowTo('Казань'))).json });
  });
});
