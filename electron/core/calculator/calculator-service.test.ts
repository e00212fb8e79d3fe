import { calculatorRequestSchema, type CalculatorRequestInput } from '../../../shared/schemas/calculator';
import { manualClock } from '../clock';
import { ProviderUnavailableError, type Carrier } from '../providers/provider';
import { createProviderRegistry } from '../providers/registry';
import { sandboxServices } from '../providers/sandbox/catalog';
import { sandboxRatesOf } from '../providers/sandbox/pricing';
import { silentLogger } from '../logger';
import { createCalculatorService } from './calculator-service';
import { resolvePlace } from './geo';

/** The calculator alone, without the app's points reference (the HTTP tests cover it with one). */
const calculator = () =>
  createCalculatorService({
    clock: manualClock(new Date(2026, 2, 2, 10).getTime()),
    providers: createProviderRegistry(sandboxServices.map((s) => ({ info: s.info, rates: sandboxRatesOf(s) }) as Carrier)),
    log: silentLogger,
  });

const request = (patch: Partial<CalculatorRequestInput> = {}) =>
  calculatorRequestSchema.parse({ from: { city: 'Москва' }, to: { city: 'Санкт-Петербург' }, places: [{ weight: 1000 }], ...patch });

describe('the calculator without a points reference', () => {
  it('gives the tariffs to a point no pointIds and refuses a point id it cannot check (040003)', async () => {
    const result = await calculator().calculate(request());
    expect(result.deliveryToPoint.map((g) => g.providerKey)).toEqual(['sandbox-express', 'sandbox-post', 'sandbox-lockers']);
    expect(result.deliveryToPoint.every((g) => g.tariffs.every((t) => t.pointIds.length === 0))).toBe(true);
    await expect(calculator().calculate(request({ pointOutId: 5 }))).rejects.toMatchObject({ body: { code: '040003', errors: [{ field: 'pointOutId' }] } });
  });
});

describe('places', () => {
  it('are found by city name whatever the case, ё or "г.", by address line, or by coordinates nearby', () => {
    const place = (p: Record<string, unknown>) => resolvePlace({ countryCode: 'RU', ...p } as never).known?.name ?? null;
    expect(place({ city: 'г. САНКТ-ПЕТЕРБУРГ' })).toBe('Санкт-Петербург');
    expect(place({ city: 'Пёрмь' })).toBe('Пермь');
    expect(place({ city: 'Урюпинск', addressString: 'Волгоградская обл., г. Урюпинск' })).toBe(null);
    expect(place({ addressString: '603000, Нижний Новгород, ул. Новгородская, 5' })).toBe('Нижний Новгород');
    expect(place({ lat: 55.8, lng: 49.1 })).toBe('Казань');
    expect(place({ lat: 50, lng: 10 })).toBe(null);
  });
});

describe('a service that cannot be reached', () => {
  it('is named in the window\'s answer and left out of the interface\'s, while the others still price the parcel', async () => {
    const [down, ...up] = sandboxServices;
    const service = createCalculatorService({
      clock: manualClock(new Date(2026, 2, 2, 10).getTime()),
      providers: createProviderRegistry([
        { info: down.info, rates: () => Promise.reject(new ProviderUnavailableError('connect ECONNREFUSED 127.0.0.1:9')) } as unknown as Carrier,
        ...up.map((s) => ({ info: s.info, rates: sandboxRatesOf(s) }) as Carrier),
      ]),
      log: silentLogger,
    });
    const answer = await service.quote(request());
    expect(answer.unreachable).toEqual([down.info.key]);
    expect(answer.deliveryToDoor.map((g) => g.providerKey)).not.toContain(down.info.key);
    expect(answer.deliveryToDoor.length).toBeGreaterThan(0);
    expect(Object.keys(await service.calculate(request()))).toEqual(['deliveryToDoor', 'deliveryToPoint']);
  });
});
