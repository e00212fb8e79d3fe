import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** A moment on the shop's own clock in March 2026 (2 March is a Monday). */
const local = (day: number, hour: number) => new Date(2026, 2, day, hour).getTime();
const xml = { 'Content-Type': 'application/xml', Accept: 'application/xml' };

type Tariff = { tariffId: number; pickupTypes: number[]; deliveryCost: number; daysMin: number; daysMax: number; pointIds?: number[] };
type Group = { providerKey: string; tariffs: Tariff[] };

/** Moscow → Saint Petersburg (about 630 km: distance band 1), one 1.2 kg box of 30×20×10 cm. */
const request = (patch: Record<string, unknown> = {}) => ({
  from: { countryCode: 'RU', city: 'Москва' },
  to: { countryCode: 'RU', city: 'Санкт-Петербург' },
  places: [{ weight: 1200, length: 30, width: 20, height: 10 }],
  ...patch,
});
/** providerKey → [tariffId, deliveryCost] of a result group. */
const costs = (groups: Group[]) => Object.fromEntries(groups.map((g) => [g.providerKey, g.tariffs.map((t) => [t.tariffId, t.deliveryCost])]));
const tariff = (groups: Group[], id: number) => groups.flatMap((g) => g.tariffs).find((t) => t.tariffId === id);

describe('POST /calculator', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    server.clock.set(local(2, 10));
  });
  afterAll(() => server.close());
  const calc = (body: unknown, path = '/calculator') => server.call('POST', path, { body });

  it('prices every tariff of every sandbox service, to the door and to a point, cheapest first', async () => {
    const res = await calc(request());
    expect(res.status).toBe(200);
    expect(costs(res.json.deliveryToDoor)).toEqual({
      'sandbox-express': [[102, 560], [103, 710]],
      'sandbox-post': [[202, 350]],
    });
    expect(costs(res.json.deliveryToPoint)).toEqual({
      'sandbox-express': [[101, 440], [104, 590]],
      'sandbox-post': [[201, 260]],
      'sandbox-lockers': [[302, 250], [301, 370]],
    });
    expect(res.json.deliveryToDoor[0].tariffs[0]).toEqual({
      tariffId: 102,
      tariffProviderId: 'SBE102',
      tariffName: 'Экспресс склад-дверь',
      pickupTypes: [2],
      deliveryTypes: [1],
      deliveryCost: 560,
      deliveryCostOriginal: 560,
      daysMin: 1,
      daysMax: 2,
      feesIncluded: true,
      insuranceFee: 0,
      cashServiceFee: 0,
    });
    expect(res.json.deliveryToPoint[2].tariffs[0]).toMatchObject({ tariffId: 302, daysMin: 2, daysMax: 3, pointIds: expect.any(Array) });
  });

  describe('pickup points', () => {
    /** Points of the sandbox reference data in a city, as the database holds them. */
    const pointsOf = async (providerKey: string, city: string, where = '1 = 1') =>
      (
        await sql<{ id: number; enabled: number; operation: number }>`SELECT id, enabled, available_operation AS operation FROM points WHERE provider_key = ${providerKey} AND city = ${city} AND ${sql.raw(where)} ORDER BY id`.execute(
          server.app.db,
        )
      ).rows;

    it('each tariff to a point lists the service\'s open points in the city that hand parcels out', async () => {
      const res = await calc(request());
      for (const group of res.json.deliveryToPoint as Group[]) {
        const ids = group.tariffs[0].pointIds!;
        const issuing = (await pointsOf(group.providerKey, 'Санкт-Петербург', 'enabled = 1 AND available_operation IN (2, 3)')).map((p) => p.id);
        expect(ids.length).toBeGreaterThan(0);
        expect([...ids].sort((a, b) => a - b)).toEqual(issuing);
        expect(group.tariffs.every((t) => t.pointIds!.join() === ids.join())).toBe(true);
      }
    });

    it('a parcel too big for every locker cell leaves the lockers out', async () => {
      const res = await calc(request({ places: [{ weight: 1000, length: 59, width: 59, height: 59 }] }));
      expect(res.json.deliveryToPoint.map((g: Group) => g.providerKey)).not.toContain('sandbox-lockers');
    });

    it('pointOutId keeps only its service\'s tariffs to a point, with that point; delivery to the door stays', async () => {
      const [point] = await pointsOf('sandbox-post', 'Санкт-Петербург', 'enabled = 1 AND available_operation IN (2, 3)');
      const res = await calc(request({ pointOutId: point.id }));
      expect(res.json.deliveryToPoint).toEqual([{ providerKey: 'sandbox-post', tariffs: [expect.objectContaining({ tariffId: 201, pointIds: [point.id] })] }]);
      expect(res.json.deliveryToDoor.map((g: Group) => g.providerKey)).toEqual(['sandbox-express', 'sandbox-post']);
    });

    it('pointInId keeps only its service among the tariffs where the shop brings the parcel', async () => {
      const [point] = await pointsOf('sandbox-express', 'Москва', 'enabled = 1 AND available_operation IN (1, 3)');
      const res = await calc(request({ pointInId: point.id }));
      const broughtIn = [...res.json.deliveryToDoor, ...res.json.deliveryToPoint].flatMap((g: Group) =>
        g.tariffs.filter((t) => t.pickupTypes[0] === 2).map(() => g.providerKey),
      );
      expect(new Set(broughtIn)).toEqual(new Set(['sandbox-express']));
      expect(tariff(res.json.deliveryToPoint, 301)).toBeDefined(); // the lockers still collect from the door
    });

    it('a point that does not exist, is closed or cannot do its part is a 040003 error saying why', async () => {
      const [closed] = await pointsOf('sandbox-express', 'Санкт-Петербург', 'enabled = 0');
      const [issueOnly] = await pointsOf('sandbox-express', 'Москва', 'enabled = 1 AND available_operation = 2');
      const [locker] = await pointsOf('sandbox-lockers', 'Санкт-Петербург', 'enabled = 1 AND max_size_a IS NOT NULL');
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ pointOutId: 987654 }, 'pointOutId', /there is no pickup point 987654/],
        [{ pointOutId: closed.id }, 'pointOutId', /is closed/],
        [{ pointInId: issueOnly.id }, 'pointInId', /does not take orders in/],
        [{ pointOutId: locker.id, places: [{ weight: 1000, length: 120, width: 20, height: 20 }] }, 'pointOutId', /does not fit/],
      ];
      for (const [patch, field, message] of cases) {
        const res = await calc(request(patch));
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ code: '040003', errors: [{ field, message: expect.stringMatching(message) }] });
      }
    });
  });

  it('is served with the /v1 prefix too', async () => {
    expect((await calc(request(), '/v1/calculator')).json).toEqual((await calc(request())).json);
  });

  it('adds insurance and the cash-on-delivery fee exactly, to the kopeck; a service without COD drops out', async () => {
    const res = await calc(request({ assessedCost: 1234.56, codCost: 3333.33 }));
    // express: 0.5 % of 1234.56 = 6.1728 → 6.17; 2 % of 3333.33 = 66.6666 → 66.67
    expect(tariff(res.json.deliveryToDoor, 102)).toMatchObject({ deliveryCost: 632.84, insuranceFee: 6.17, cashServiceFee: 66.67 });
    // post: 0.4 % → 4.94; 3 % → 100.00
    expect(tariff(res.json.deliveryToDoor, 202)).toMatchObject({ deliveryCost: 454.94, insuranceFee: 4.94, cashServiceFee: 100 });
    expect(res.json.deliveryToPoint.map((g: Group) => g.providerKey)).toEqual(['sandbox-express', 'sandbox-post']);
    const small = await calc(request({ codCost: 100 }));
    expect(tariff(small.json.deliveryToDoor, 102)).toMatchObject({ cashServiceFee: 30, deliveryCost: 590 }); // the 30 ₽ minimum
  });

  it('charges a light, bulky box by its volumetric weight where the service does', async () => {
    const res = await calc(request({ places: [{ weight: 500, length: 50, width: 40, height: 30 }] }));
    expect(tariff(res.json.deliveryToDoor, 102)?.deliveryCost).toBe(1505); // 12 kg volumetric at 5000 cm³/kg
    expect(tariff(res.json.deliveryToDoor, 202)?.deliveryCost).toBe(310); // the post weighs only
    expect(tariff(res.json.deliveryToPoint, 302)?.deliveryCost).toBe(675); // 10 kg at 6000 cm³/kg
  });

  it('prices and times by the distance between the cities', async () => {
    const to = async (place: Record<string, unknown>) => tariff((await calc(request({ to: place }))).json.deliveryToDoor, 102);
    expect(await to({ city: 'москва' })).toMatchObject({ deliveryCost: 430, daysMin: 1, daysMax: 1 });
    expect(await to({ city: 'Владивосток' })).toMatchObject({ deliveryCost: 1260, daysMin: 5, daysMax: 8 });
    expect(await to({ addressString: 'г. Казань, ул. Баумана, д. 1' })).toMatchObject({ deliveryCost: 690, daysMin: 2, daysMax: 3 });
    expect(await to({ lat: 59.93, lng: 30.31 })).toMatchObject({ deliveryCost: 560 }); // near Saint Petersburg's centre
    expect(await to({ city: 'Урюпинск' })).toMatchObject({ deliveryCost: 880, daysMin: 3, daysMax: 5 }); // a city it does not know
  });

  it('a post parcel handed over on a Sunday leaves on Monday', async () => {
    const res = await calc(request({ pickupDate: '2026-03-08' }));
    expect(tariff(res.json.deliveryToDoor, 202)).toMatchObject({ daysMin: 4, daysMax: 6 });
    expect(tariff(res.json.deliveryToDoor, 102)).toMatchObject({ daysMin: 1, daysMax: 2 });
  });

  it('leaves out the tariffs that cannot carry the parcel: weight, several places, a locker cell too small', async () => {
    const heavy = await calc(request({ places: [{ weight: 16_000 }] }));
    expect(heavy.json.deliveryToPoint.map((g: Group) => g.providerKey)).toEqual(['sandbox-express', 'sandbox-post']);
    const veryHeavy = await calc(request({ places: [{ weight: 40_000 }] }));
    expect(costs(veryHeavy.json.deliveryToDoor)).toEqual({ 'sandbox-express': [[103, expect.any(Number)]] });
    expect(veryHeavy.json.deliveryToPoint).toEqual([]);
    const twoBoxes = await calc(request({ places: [{ weight: 500 }, { weight: 700 }] }));
    expect(twoBoxes.json.deliveryToPoint.map((g: Group) => g.providerKey)).not.toContain('sandbox-lockers');
    const long = await calc(request({ places: [{ weight: 500, length: 80, width: 10, height: 10 }] }));
    expect(long.json.deliveryToPoint.map((g: Group) => g.providerKey)).not.toContain('sandbox-lockers');
  });

  it('narrows by providerKeys, tariffIds, pickupTypes and deliveryTypes', async () => {
    expect(costs((await calc(request({ providerKeys: ['sandbox-post'] }))).json.deliveryToDoor)).toEqual({ 'sandbox-post': [[202, 350]] });
    const byTariff = (await calc(request({ tariffIds: [103, 201] }))).json;
    expect([costs(byTariff.deliveryToDoor), costs(byTariff.deliveryToPoint)]).toEqual([{ 'sandbox-express': [[103, 710]] }, { 'sandbox-post': [[201, 260]] }]);
    const fromDoorToPoint = (await calc(request({ pickupTypes: [1], deliveryTypes: [2] }))).json;
    expect(fromDoorToPoint.deliveryToDoor).toEqual([]);
    expect(costs(fromDoorToPoint.deliveryToPoint)).toEqual({ 'sandbox-express': [[104, 590]], 'sandbox-lockers': [[301, 370]] });
  });

  it('takes the older single-parcel form with the weight at the top', async () => {
    const { places: _places, ...rest } = request();
    const res = await calc({ ...rest, weight: 1200, length: 30, width: 20, height: 10 });
    expect(res.json).toEqual((await calc(request())).json);
  });

  it('takes an XML request and answers in XML with item lists', async () => {
    const body = `<?xml version="1.0" encoding="UTF-8"?>
<request><from><city>Москва</city></from><to><city>Санкт-Петербург</city></to>
  <places><item><weight>1200</weight><length>30</length><width>20</width><height>10</height></item></places>
  <providerKeys>sandbox-post</providerKeys><deliveryTypes><item>1</item></deliveryTypes><codCost>0</codCost></request>`;
    const res = await server.call('POST', '/calculator', { raw: body, headers: xml });
    expect(res.status).toBe(200);
    expect(res.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<response><deliveryToDoor><item><providerKey>sandbox-post</providerKey><tariffs><item>' +
        '<tariffId>202</tariffId><tariffProviderId>SBP202</tariffProviderId><tariffName>Посылка до двери</tariffName>' +
        '<pickupTypes><item>2</item></pickupTypes><deliveryTypes><item>1</item></deliveryTypes><deliveryCost>350</deliveryCost>' +
        '<deliveryCostOriginal>350</deliveryCostOriginal><daysMin>3</daysMin><daysMax>5</daysMax><feesIncluded>1</feesIncluded>' +
        '<insuranceFee>0</insuranceFee><cashServiceFee>0</cashServiceFee></item></tariffs></item></deliveryToDoor><deliveryToPoint/></response>',
    );
  });

  describe('validation errors are 040003 and name the field', () => {
    it.each<[string, unknown, string]>([
      ['no from and to', { places: [{ weight: 100 }] }, 'from'],
      ['a place without a city', request({ to: { countryCode: 'RU' } }), 'to.city'],
      ['no parcel at all', request({ places: [] }), 'places'],
      ['a weight of 0', request({ places: [{ weight: 0 }] }), 'places.0.weight'],
      ['a weight that is not a number', request({ places: [{ weight: 'heavy' }] }), 'places.0.weight'],
      ['pickupType 3', request({ pickupTypes: [3] }), 'pickupTypes.0'],
      ['a third of a kopeck', request({ codCost: 10.555 }), 'codCost'],
      ['a pickup date that is not a date', request({ pickupDate: 'someday' }), 'pickupDate'],
      ['a pickup date that is not in the calendar', request({ pickupDate: '2026-04-31' }), 'pickupDate'],
      ['a pickup date in the past', request({ pickupDate: '2026-03-01' }), 'pickupDate'],
      ['an unknown delivery service', request({ providerKeys: ['sandbox-post', 'teleport'] }), 'providerKeys.1'],
      ['a latitude off the globe', request({ to: { lat: 95, lng: 30 } }), 'to.lat'],
    ])('%s', async (_name, body, field) => {
      const res = await calc(body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040003', message: expect.any(String), errors: expect.arrayContaining([{ field, message: expect.any(String) }]) });
    });

    it('no body at all, and an XML body, get the error body too', async () => {
      const empty = await server.call('POST', '/calculator');
      expect(empty.json.code).toBe('040003');
      const inXml = await server.call('POST', '/calculator', { raw: '<request><from><city>Москва</city></from></request>', headers: xml });
      expect(inXml.status).toBe(400);
      expect(inXml.text).toContain('<code>040003</code>');
      expect(inXml.text).toContain('<field>to</field><message>is required</message>');
    });
  });

  it('the calculator.calculate command answers the same for the UI, and names the services it could not ask', async () => {
    const res = await server.command('calculator.calculate', request());
    expect(res.json).toEqual({ ok: true, value: { ...(await calc(request())).json, unreachable: [] } });
  });
});
