/**
 * Writes the reference data of the built-in sandbox delivery services to resources/sandbox/:
 * pickup points, parcel lockers and post offices in real Russian cities, the tariffs of
 * electron/core/providers/sandbox/catalog.ts and the additional services. Deterministic: the same
 * seed gives byte-identical files (a test checks the committed files are this script's output).
 *
 *   npx tsx scripts/generate-sandbox-data.ts            # rewrite resources/sandbox
 *   npx tsx scripts/generate-sandbox-data.ts --check    # exit 1 when the committed files are stale
 *
 * The app loads the files into SQLite at start when their version (a content hash) changed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pointColumns, type PointRow, type PointsFile } from '../electron/core/lists/reference-format';
import { sandboxServices, type SandboxService } from '../electron/core/providers/sandbox/catalog';
import type { PointLimits, ProviderService, Tariff, Worktime } from '../shared/schemas/lists';

export const defaultSeed = 20260301;
/** Points per service in the shipped data: 6,000 in all, loaded in about a tenth of a second. */
export const defaultCounts: Record<string, number> = { 'sandbox-express': 2400, 'sandbox-post': 1500, 'sandbox-lockers': 2100 };
/** First point id of each service; ids stay below the next base for up to 99,999 points. */
const idBase: Record<string, number> = { 'sandbox-express': 100_000, 'sandbox-post': 200_000, 'sandbox-lockers': 300_000 };

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): no Math.random anywhere, so the output is reproducible.

export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random = {
    next,
    /** Integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
    /** Picks by weight: [[value, weight], …]. */
    weighted: <T>(options: readonly (readonly [T, number])[]): T => {
      const total = options.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [value, w] of options) {
        r -= w;
        if (r < 0) return value;
      }
      return options[options.length - 1][0];
    },
    /** Standard normal (Box–Muller). */
    gauss: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    shuffle: <T>(list: T[]): T[] => {
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [list[i], list[j]] = [list[j], list[i]];
      }
      return list;
    },
  };
  return random;
}
type Random = ReturnType<typeof seededRandom>;

// ---------------------------------------------------------------------------------------------
// Opening hours.

const dayNames = ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'];
const roundTheClock = '00:00/24:00';

/** Worktime from day ranges: [[1, 5, '10:00/20:00'], [6, 6, '10:00/18:00']] (days not listed are off). */
function worktime(ranges: [number, number, string][]): Worktime {
  const result: Worktime = {};
  for (const [from, to, hours] of ranges) for (let d = from; d <= to; d++) result[String(d) as keyof Worktime] = hours;
  return result;
}

/** "Пн-Пт 10:00-20:00, Сб 10:00-18:00, Вс выходной", "Ежедневно 09:00-22:00" or "Круглосуточно". */
export function formatTimetable(wt: Worktime): string {
  const days = [1, 2, 3, 4, 5, 6, 7].map((d) => wt[String(d) as keyof Worktime] ?? null);
  if (days.every((h) => h === days[0]) && days[0] !== null) {
    return days[0] === roundTheClock ? 'Круглосуточно' : `Ежедневно ${days[0].replace('/', '-')}`;
  }
  const parts: string[] = [];
  for (let i = 0; i < 7; ) {
    let j = i;
    while (j + 1 < 7 && days[j + 1] === days[i]) j++;
    const span = i === j ? dayNames[i] : `${dayNames[i]}-${dayNames[j]}`;
    const hours = days[i];
    parts.push(`${span} ${hours === null ? 'выходной' : hours === roundTheClock ? 'круглосуточно' : hours.replace('/', '-')}`);
    i = j + 1;
  }
  return parts.join(', ');
}

const schedules = {
  pickup: [
    [worktime([[1, 7, '10:00/21:00']]), 40],
    [worktime([[1, 5, '10:00/20:00'], [6, 6, '10:00/18:00']]), 25],
    [worktime([[1, 6, '09:00/21:00']]), 20],
    [worktime([[1, 7, '09:00/22:00']]), 15],
  ],
  terminal: [
    [worktime([[1, 5, '09:00/18:00']]), 60],
    [worktime([[1, 5, '09:00/20:00'], [6, 6, '10:00/16:00']]), 40],
  ],
  post: [
    [worktime([[1, 5, '08:00/20:00'], [6, 6, '09:00/18:00']]), 50],
    [worktime([[2, 6, '08:00/20:00']]), 25],
    [worktime([[1, 5, '09:00/19:00'], [6, 6, '09:00/14:00']]), 20],
    [worktime([[1, 7, '08:00/22:00']]), 5],
  ],
  locker: [
    [worktime([[1, 7, roundTheClock]]), 70],
    [worktime([[1, 7, '10:00/22:00']]), 30],
  ],
  partner: [
    [worktime([[1, 6, '10:00/20:00']]), 50],
    [worktime([[1, 7, '10:00/20:00']]), 50],
  ],
} satisfies Record<string, [Worktime, number][]>;

// ---------------------------------------------------------------------------------------------
// Limits (grams, centimetres, rubles). Locker sizes are the largest cell, A ≥ B ≥ C.

const noSizes = { maxSizeA: null, maxSizeB: null, maxSizeC: null };
const limitProfiles = {
  pickup: { ...noSizes, maxSizeSum: 200, minWeight: null, maxWeight: 30_000, maxCod: 150_000 },
  pickupSmall: { ...noSizes, maxSizeSum: 150, minWeight: null, maxWeight: 15_000, maxCod: 100_000 },
  terminal: { ...noSizes, maxSizeSum: 300, minWeight: null, maxWeight: 50_000, maxCod: 250_000 },
  post: { ...noSizes, maxSizeSum: 300, minWeight: null, maxWeight: 20_000, maxCod: 500_000 },
  postSmall: { ...noSizes, maxSizeSum: 150, minWeight: null, maxWeight: 10_000, maxCod: 100_000 },
  lockerL: { maxSizeA: 64, maxSizeB: 41, maxSizeC: 38, maxSizeSum: 143, minWeight: 1, maxWeight: 15_000, maxCod: null },
  lockerM: { maxSizeA: 60, maxSizeB: 36, maxSizeC: 30, maxSizeSum: 126, minWeight: 1, maxWeight: 10_000, maxCod: null },
  lockerS: { maxSizeA: 47, maxSizeB: 36, maxSizeC: 20, maxSizeSum: 103, minWeight: 1, maxWeight: 5_000, maxCod: null },
  partner: { ...noSizes, maxSizeSum: 150, minWeight: null, maxWeight: 15_000, maxCod: null },
} satisfies Record<string, PointLimits>;

// ---------------------------------------------------------------------------------------------
// Tariffs and additional services.

const pickupText = { 1: 'курьер забирает заказ у отправителя', 2: 'отправитель привозит заказ на склад службы' } as const;
const deliveryText = { 1: 'курьер доставляет до двери получателя', 2: 'получатель забирает заказ в пункте выдачи' } as const;
const code = (t: SandboxService['tariffs'][number]) => `${t.pickupType === 1 ? 'D' : 'W'}${t.deliveryType === 1 ? 'D' : 'W'}`;

/** The catalog's tariffs as wire records, with a description and the service's own tariff code. */
export function tariffRecords(services: SandboxService[] = sandboxServices): Tariff[] {
  return services.flatMap((s) =>
    s.tariffs.map((t) => ({
      id: t.id,
      providerKey: s.info.key,
      name: t.name,
      description:
        `${pickupText[t.pickupType][0].toUpperCase()}${pickupText[t.pickupType].slice(1)}, ${deliveryText[t.deliveryType]}. ` +
        `Вес до ${t.weightMax / 1000} кг. ${t.paymentCash ? 'Наложенный платёж можно оплатить наличными.' : 'Наложенный платёж только картой или без него.'}`,
      aliasName: `${s.numberPrefix}-${code(t)}-${t.id}`,
      weightMin: t.weightMin,
      weightMax: t.weightMax,
      pickupType: t.pickupType,
      deliveryType: t.deliveryType,
      paymentCash: t.paymentCash ? 1 : 0,
    })),
  );
}

const smsNotice = (providerKey: string): ProviderService => ({
  providerKey,
  name: 'SMS-уведомление получателя',
  extraParamName: 'smsNotice',
  valueType: 'bool',
  description: 'Получатель получает SMS о поступлении заказа и коде получения.',
});

/** Additional services per sandbox service (`/lists/services`), ordered by `extraParams.{extraParamName}`. */
export const serviceRecords: ProviderService[] = [
  { providerKey: 'sandbox-express', name: 'Страхование', extraParamName: 'insurance', valueType: 'bool', description: 'Страхование отправления на сумму объявленной ценности.' },
  { providerKey: 'sandbox-express', name: 'Примерка', extraParamName: 'fitting', valueType: 'bool', description: 'Получатель может примерить вещи в пункте выдачи с примерочной или при курьере.' },
  { providerKey: 'sandbox-express', name: 'Частичная выдача', extraParamName: 'partialDelivery', valueType: 'bool', description: 'Получатель может выкупить часть вложений; служба сообщит, сколько каждого товара выкуплено.' },
  smsNotice('sandbox-express'),
  { providerKey: 'sandbox-express', name: 'Вскрытие до оплаты', extraParamName: 'openBeforePayment', valueType: 'bool', description: 'Получатель может вскрыть упаковку и проверить вложение до оплаты.' },
  { providerKey: 'sandbox-express', name: 'Тип груза', extraParamName: 'cargoType', valueType: 'string', description: 'general — обычный (по умолчанию), fragile — хрупкий, documents — документы, dangerous — опасный (только тарифы до двери).' },
  { providerKey: 'sandbox-express', name: 'Ожидание у получателя, мин', extraParamName: 'courierWaitMinutes', valueType: 'int', description: 'Сколько минут курьер ждёт получателя при доставке до двери: от 15 до 60, по умолчанию 15.' },
  { providerKey: 'sandbox-post', name: 'Объявленная ценность', extraParamName: 'declaredValue', valueType: 'float', description: 'Объявленная ценность в рублях, если она отличается от оценочной стоимости заказа.' },
  { providerKey: 'sandbox-post', name: 'Опись вложения', extraParamName: 'inventory', valueType: 'bool', description: 'Почтовое отделение сверяет вложение с описью (форма Ф107).' },
  { providerKey: 'sandbox-post', name: 'Уведомление о вручении', extraParamName: 'deliveryNotice', valueType: 'bool', description: 'Отправитель получает уведомление о вручении заказа.' },
  { providerKey: 'sandbox-post', name: 'Отметка «Осторожно»', extraParamName: 'fragile', valueType: 'bool', description: 'Хрупкое вложение: отдельная обработка на сортировке.' },
  smsNotice('sandbox-post'),
  smsNotice('sandbox-lockers'),
  { providerKey: 'sandbox-lockers', name: 'Срок хранения, дней', extraParamName: 'storageDays', valueType: 'int', description: 'Сколько дней заказ ждёт получателя в постамате: от 3 до 7, по умолчанию 3.' },
  { providerKey: 'sandbox-lockers', name: 'Размер ячейки', extraParamName: 'cellSize', valueType: 'string', description: 'S, M или L; без параметра ячейка подбирается по габаритам заказа.' },
];

// ---------------------------------------------------------------------------------------------
// Points.

interface Dictionaries {
  places: PointsFile['places'];
  streets: string[];
  names: string[];
  schedules: PointsFile['schedules'];
  limits: PointLimits[];
}

function dictionaries() {
  const dict: Dictionaries = { places: [], streets: [], names: [], schedules: [], limits: [] };
  const seen = {
    places: new Map<string, number>(), streets: new Map<string, number>(), names: new Map<string, number>(),
    schedules: new Map<string, number>(), limits: new Map<string, number>(),
  };
  const intern = <K extends keyof Dictionaries>(kind: K, value: Dictionaries[K][number]): number => {
    const key = JSON.stringify(value);
    let i = seen[kind].get(key);
    if (i === undefined) {
      i = dict[kind].length;
      (dict[kind] as unknown[]).push(value);
      seen[kind].set(key, i);
    }
    return i;
  };
  return { dict, intern };
}

/** Splits `total` over the cities by population (largest remainder), at least `min` each. */
function allocate(total: number, weights: number[], min: number): number[] {
  const rest = Math.max(0, total - min * weights.length);
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / sum) * rest);
  const counts = exact.map((x) => min + Math.floor(x));
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  let left = total - counts.reduce((a, b) => a + b, 0);
  for (const [, i] of order) {
    if (left <= 0) break;
    counts[i]++;
    left--;
  }
  return counts;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** A spot around a centre: normal scatter within the radius, and the bearing/distance it lies at. */
function scatter(random: Random, lat: number, lng: number, radiusKm: number) {
  const distance = Math.min(radiusKm, Math.abs(random.gauss()) * radiusKm * 0.45);
  const bearing = random.next() * 2 * Math.PI;
  const dLat = (distance * Math.cos(bearing)) / 111.32;
  const dLng = (distance * Math.sin(bearing)) / (111.32 * Math.cos((lat * Math.PI) / 180));
  return { lat: round6(lat + dLat), lng: round6(lng + dLng), distance, bearing };
}

function phone(random: Random, codes: string[]): string {
  const area = random.pick(codes);
  const digits = String(random.int(0, 10 ** (10 - area.length) - 1)).padStart(10 - area.length, '0');
  const tail = `${digits.slice(-4, -2)}-${digits.slice(-2)}`;
  return `+7 (${area}) ${digits.slice(0, digits.length - 4)}-${tail}`;
}

function house(random: Random): string {
  const n = 1 + Math.floor(random.next() ** 2 * 160);
  if (random.chance(0.08)) return `${n}${random.pick(['А', 'Б', 'В', 'Г'])}`;
  if (random.chance(0.05)) return `${n}/${random.int(1, 12)}`;
  return String(n);
}

const hotline = '+7 (800) 100-20-30';
const partners = ['Канцтовары', 'Цветы 24', 'Книжная лавка', 'Фото на документы', 'Ремонт обуви', 'Зоомагазин', 'Хозтовары', 'Мир чая'];

type Kind = 'pickup' | 'terminal' | 'post' | 'locker' | 'partner';

type Flag = 0 | 1;
interface Traits {
  code: string;
  /** A literal name, or a template with {where} / {postIndex} (stored once in the file). */
  name: string | { template: string };
  phone: string;
  fittingRoom: Flag | null;
  cod: Flag | null;
  paymentCash: Flag | null;
  paymentCard: Flag | null;
  availableOperation: 1 | 2 | 3;
  type: 1 | 2 | 3 | 4;
  limits: PointLimits;
}

/** What a point of each kind is like: express pickup points mostly have fitting rooms, lockers take no COD. */
function pointTraits(random: Random, kind: Kind, at: { city: City; seq: string; seqInCity: number; postIndex: string }): Traits {
  const { city, seq, seqInCity, postIndex } = at;
  const seq4 = String(seqInCity).padStart(4, '0');
  switch (kind) {
    case 'pickup':
      return {
        code: `${city.code}${seq}`, name: { template: 'Экспресс на {where}' }, phone: phone(random, city.phoneCodes),
        fittingRoom: random.chance(0.88) ? 1 : 0, cod: 1, paymentCash: random.chance(0.97) ? 1 : 0,
        paymentCard: random.weighted<Flag | null>([[1, 80], [0, 10], [null, 10]]),
        availableOperation: random.chance(0.7) ? 3 : 2, type: 1,
        limits: random.chance(0.75) ? limitProfiles.pickup : limitProfiles.pickupSmall,
      };
    case 'terminal':
      return {
        code: `${city.code}-T${seqInCity}`, name: `Экспресс терминал ${city.name}-${seqInCity}`, phone: phone(random, city.phoneCodes),
        fittingRoom: 0, cod: 1, paymentCash: 1, paymentCard: 1, availableOperation: 3, type: 4, limits: limitProfiles.terminal,
      };
    case 'post':
      return {
        code: postIndex, name: { template: 'Почтовое отделение {postIndex}' }, phone: phone(random, city.phoneCodes),
        fittingRoom: 0, cod: 1, paymentCash: 1, paymentCard: random.chance(0.85) ? 1 : 0, availableOperation: 3, type: 3,
        limits: random.chance(0.3) ? limitProfiles.postSmall : limitProfiles.post,
      };
    case 'locker':
      return {
        code: `${city.code}L${seq4}`, name: { template: 'Постамат {where}' }, phone: hotline,
        fittingRoom: 0, cod: 0, paymentCash: 0, paymentCard: 0, availableOperation: random.chance(0.8) ? 3 : 2, type: 2,
        limits: random.weighted([[limitProfiles.lockerL, 50], [limitProfiles.lockerM, 35], [limitProfiles.lockerS, 15]]),
      };
    case 'partner':
      return {
        code: `${city.code}P${seq4}`, name: { template: `Пункт выдачи в магазине «${random.pick(partners)}»` }, phone: phone(random, city.phoneCodes),
        fittingRoom: random.chance(0.2) ? 1 : 0, cod: 0, paymentCash: 0, paymentCard: 0, availableOperation: random.chance(0.6) ? 2 : 3,
        type: 1, limits: limitProfiles.partner,
      };
  }
}

export interface GenerateOptions {
  seed?: number;
  /** Points per provider key. */
  counts?: Record<string, number>;
}

/** The compact points file for the given counts (a benchmark may ask for 100,000 points). */
export function generatePointsFile(options: GenerateOptions = {}): PointsFile {
  const random = seededRandom(options.seed ?? defaultSeed);
  const counts = options.counts ?? defaultCounts;
  const providers = Object.keys(counts);
  const { dict, intern } = dictionaries();
  const rows: PointRow[] = [];

  for (const providerKey of providers) {
    const base = idBase[providerKey];
    if (base === undefined) throw new Error(`no id range for ${providerKey}`);
    const perCity = allocate(counts[providerKey], cities.map((c) => c.population), 3);
    let next = 1;
    cities.forEach((city, cityIndex) => {
      const n = perCity[cityIndex];
      // Post offices each have their own index while the ranges last.
      const freeIndexes = new Map<string, number[]>();
      const drawIndex = (range: [number, number], unique: boolean) => {
        if (!unique) return String(random.int(range[0], range[1]));
        const key = range.join();
        if (!freeIndexes.has(key)) freeIndexes.set(key, random.shuffle(Array.from({ length: range[1] - range[0] + 1 }, (_, i) => range[0] + i)));
        const free = freeIndexes.get(key)!;
        return String(free.length ? free.pop()! : random.int(range[0], range[1]));
      };
      const terminals = providerKey === 'sandbox-express' ? Math.max(1, Math.round(n * 0.03)) : 0;
      let seqInCity = 0;
      for (let k = 0; k < n; k++) {
        seqInCity++;
        const kind: Kind =
          providerKey === 'sandbox-express' ? (k < terminals ? 'terminal' : 'pickup')
          : providerKey === 'sandbox-post' ? 'post'
          : random.chance(0.85) ? 'locker' : 'partner';

        // Where: a settlement within the city area, or a district by where the spot lies.
        const settlement = city.settlements?.find((s) => random.chance(s.share)) ?? null;
        let spot;
        let community: string;
        let addressPlace: string;
        let streets: string[];
        const cityLabel = `г. ${city.name}`;
        const regionPrefix = city.federal ? '' : `${city.region}, `;
        if (settlement) {
          spot = scatter(random, settlement.lat, settlement.lng, settlement.radiusKm);
          community = settlement.name;
          addressPlace = `${regionPrefix}${cityLabel}, ${settlement.label}`;
          streets = settlement.streets;
        } else {
          spot = scatter(random, city.lat, city.lng, city.radiusKm);
          const outer = city.districts.length - 1;
          community =
            spot.distance < city.radiusKm * 0.2 || outer === 0
              ? city.districts[0]
              : city.districts[1 + Math.min(outer - 1, Math.floor((spot.bearing / (2 * Math.PI)) * outer))];
          addressPlace = `${regionPrefix}${cityLabel}`;
          streets = city.federal ? city.streets : random.chance(0.6) ? city.streets : commonStreets;
        }
        const postIndex = drawIndex(settlement?.index ?? city.index, kind === 'post');
        const place = intern('places', ['RU', city.region, city.name, community, addressPlace]);

        let street: string | null = null;
        let houseNo: string | null = null;
        let block: string | null = null;
        if (settlement?.buildingsOnly) {
          block = String(random.int(1, 20) * 100 + random.int(1, 30)); // Зеленоград: корпус 1106
        } else {
          street = random.pick(streets);
          houseNo = house(random);
          if (random.chance(0.12)) block = String(random.int(1, 5));
        }
        const office = kind === 'pickup' && random.chance(0.35) ? String(random.int(1, 300)) : null;
        const streetIx = street === null ? null : intern('streets', street);

        const id = base + next++;
        const seq = String(seqInCity).padStart(3, '0');
        const hours = random.weighted(schedules[kind]);
        const p = pointTraits(random, kind, { city, seq, seqInCity, postIndex });
        rows.push([
          id, providers.indexOf(providerKey), p.code, typeof p.name === 'string' ? p.name : intern('names', p.name.template), postIndex, spot.lat, spot.lng, place, streetIx, houseNo, block, office, p.phone,
          intern('schedules', [formatTimetable(hours), hours]), p.fittingRoom, p.cod, p.paymentCash, p.paymentCard, p.availableOperation,
          p.type, intern('limits', p.limits), random.chance(0.98) ? 1 : 0,
        ]);
      }
    });
  }
  return { format: 1, columns: [...pointColumns], providers, ...dict, rows };
}

// ---------------------------------------------------------------------------------------------
// Files.

/** JSON with one point row per line: compact, and a regenerated file diffs line by line. */
function pointsJson(file: PointsFile): string {
  const { rows, ...head } = file;
  const headJson = JSON.stringify(head);
  return `${headJson.slice(0, -1)},"rows":[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
}

const listJson = (list: unknown[]) => `[\n${list.map((x) => JSON.stringify(x)).join(',\n')}\n]\n`;

/** Every file of resources/sandbox by name, the manifest last (its version is the hash of the others). */
export function generateSandboxData(options: GenerateOptions = {}): Record<string, string> {
  const files: Record<string, string> = {
    'points.json': pointsJson(generatePointsFile(options)),
    'tariffs.json': listJson(tariffRecords()),
    'services.json': listJson(serviceRecords),
  };
  const hash = createHash('sha256');
  for (const name of Object.keys(files).sort()) hash.update(name).update('\0').update(files[name]).update('\0');
  const manifest = {
    dataset: 'sandbox',
    version: hash.digest('hex').slice(0, 16),
    generator: 'scripts/generate-sandbox-data.ts',
    seed: options.seed ?? defaultSeed,
    files: { points: 'points.json', tariffs: 'tariffs.json', services: 'services.json' },
  };
  return { ...files, 'manifest.json': `${JSON.stringify(manifest, null, 2)}\n` };
}

export const sandboxResourcesDir = fileURLToPath(new URL('../resources/sandbox/', import.meta.url));

function main(args: string[]) {
  const started = performance.now();
  const files = generateSandboxData();
  if (args.includes('--check')) {
    const stale = Object.entries(files).filter(([name, text]) => {
      try {
        return readFileSync(path.join(sandboxResourcesDir, name), 'utf8') !== text;
      } catch {
        return true;
      }
    });
    if (stale.length) {
      console.error(`resources/sandbox is stale: ${stale.map(([n]) => n).join(', ')}. Run npx tsx scripts/generate-sandbox-data.ts`);
      process.exit(1);
    }
    console.log('resources/sandbox is up to date');
    return;
  }
  mkdirSync(sandboxResourcesDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(sandboxResourcesDir, name), text);
  const sizes = Object.entries(files).map(([n, t]) => `${n} ${(Buffer.byteLength(t) / 1024).toFixed(0)} KiB`);
  console.log(`resources/sandbox written in ${(performance.now() - started).toFixed(0)} ms: ${sizes.join(', ')}`);
}


// ---------------------------------------------------------------------------------------------
// Geography.
/**
 * Real Russian cities for the sandbox reference data: region, centre, postal index ranges, area
 * codes, districts (or settlements within the city area) and streets. Coordinates are the city
 * centres; the points are scattered around them by scripts/generate-sandbox-data.ts.
 */

export interface Settlement {
  /** The `community` of its points, e.g. Зеленоград. */
  name: string;
  /** How it is written in an address after the city: `г. Зеленоград`, `пос. Коммунарка`. */
  label: string;
  lat: number;
  lng: number;
  radiusKm: number;
  index: [number, number];
  /** Share of the city's points that lie here. */
  share: number;
  streets: string[];
  /** Addresses by building number only (Зеленоград: `корп. 1106`), without street and house. */
  buildingsOnly?: boolean;
}

export interface City {
  /** Three letters used in point codes. */
  code: string;
  name: string;
  region: string;
  /** Moscow and Saint Petersburg are regions themselves. */
  federal?: boolean;
  lat: number;
  lng: number;
  radiusKm: number;
  /** Population in thousands: the share of points. */
  population: number;
  phoneCodes: string[];
  index: [number, number];
  /** The first one is the centre; the others lie around it. */
  districts: string[];
  settlements?: Settlement[];
  /** Streets of this city; common ones are added for the non-federal cities. */
  streets: string[];
}

/** Street names found in almost every Russian city. */
export const commonStreets = [
  'ул. Ленина', 'ул. Мира', 'ул. Советская', 'ул. Гагарина', 'ул. Карла Маркса', 'ул. Пушкина', 'ул. Лермонтова', 'ул. Горького',
  'ул. Кирова', 'ул. Молодёжная', 'ул. Садовая', 'ул. Школьная', 'ул. Центральная', 'ул. Октябрьская', 'ул. Комсомольская',
  'ул. Первомайская', 'ул. Строителей', 'ул. Чкалова', 'ул. Фрунзе', 'ул. Куйбышева', 'ул. Свердлова', 'ул. Московская',
  'ул. Набережная', 'ул. Лесная', 'ул. Заводская', 'пр-т Победы', 'пр-т Мира', 'пр-т Космонавтов', 'ул. Маяковского', 'ул. Чехова',
  'ул. Гоголя', 'ул. Суворова', 'ул. Жукова', 'ул. 8 Марта', 'ул. Профсоюзная', 'ул. Кооперативная', 'ул. Социалистическая',
  'ул. Интернациональная', 'б-р Победы', 'ул. Весенняя', 'ул. Солнечная', 'ул. Полевая', 'ул. Рабочая', 'ул. Советской Армии',
  'ул. Дзержинского', 'ул. Крупской', 'ул. Некрасова', 'ул. Тургенева', 'ул. Островского', 'ул. Щорса',
];

export const cities: City[] = [
  {
    code: 'MSK', name: 'Москва', region: 'Москва', federal: true, lat: 55.755864, lng: 37.617698, radiusKm: 16, population: 13100,
    phoneCodes: ['495', '499'], index: [101000, 129350],
    districts: [
      'Тверской район', 'Басманный район', 'Пресненский район', 'район Хамовники', 'район Арбат', 'район Сокольники', 'Останкинский район',
      'район Марьино', 'район Люблино', 'район Выхино-Жулебино', 'район Измайлово', 'район Гольяново', 'Бабушкинский район',
      'район Отрадное', 'Бутырский район', 'Головинский район', 'район Митино', 'район Строгино', 'район Кунцево',
      'район Раменки', 'район Тёплый Стан', 'район Ясенево', 'район Чертаново Центральное', 'район Бирюлёво Западное',
      'район Братеево',
    ],
    settlements: [
      {
        name: 'Зеленоград', label: 'г. Зеленоград', lat: 55.982512, lng: 37.181446, radiusKm: 4, index: [124460, 124683], share: 0.05, streets: [],
        buildingsOnly: true,
      },
      { name: 'Троицк', label: 'г. Троицк', lat: 55.484538, lng: 37.306973, radiusKm: 2.5, index: [108840, 108841], share: 0.015, streets: ['Октябрьский пр-т', 'Калужское ш.', 'ул. Физическая', 'Сиреневый б-р', 'ул. Полковника Милиции Курочкина'] },
      { name: 'Щербинка', label: 'г. Щербинка', lat: 55.499681, lng: 37.559677, radiusKm: 2, index: [108851, 108854], share: 0.012, streets: ['ул. Железнодорожная', 'ул. Высотная', 'Симферопольская ул.', 'ул. Юбилейная'] },
      { name: 'Коммунарка', label: 'пос. Коммунарка', lat: 55.569021, lng: 37.488403, radiusKm: 2, index: [108801, 108803], share: 0.01, streets: ['ул. Александры Монаховой', 'ул. Сосенский Стан', 'Бачуринская ул.', 'ул. Фитарёвская'] },
      { name: 'Московский', label: 'г. Московский', lat: 55.600219, lng: 37.354599, radiusKm: 2, index: [108811, 108811], share: 0.01, streets: ['ул. Атласова', 'ул. Радиальная', '1-й мкр.', 'Солнечная ул.'] },
    ],
    streets: [
      'ул. Тверская', 'ул. Арбат', 'ул. Новый Арбат', 'Ленинский пр-т', 'Профсоюзная ул.', 'Кутузовский пр-т', 'ул. Пятницкая', 'ул. Маросейка',
      'ул. Мясницкая', 'ул. Покровка', 'ул. Большая Якиманка', 'Люблинская ул.', 'Митинская ул.', 'Строгинский б-р', 'пр-т Мира',
      'Ленинградский пр-т', 'Дмитровское ш.', 'Варшавское ш.', 'Каширское ш.', 'ш. Энтузиастов', 'Рязанский пр-т', 'Волгоградский пр-т',
      'ул. Покрышкина', 'Мичуринский пр-т', 'ул. Вавилова', 'ул. Бутырская', 'Алтуфьевское ш.', 'ул. Героев Панфиловца', 'Осенний б-р',
      'ул. Марксистская', 'Щёлковское ш.', 'Первомайская ул.', 'ул. Свободы', 'Садовая-Кудринская ул.', 'ул. Большая Дорогомиловская',
      'Хорошёвское ш.', 'Новослободская ул.', 'ул. Краснопрудная', 'Широкая ул.', 'Зеленодольская ул.', 'Марьинский б-р', 'ул. Грина',
      'ул. Бирюлёвская', 'Ореховый б-р', 'Севастопольский пр-т', 'ул. Миклухо-Маклая', 'Новоясеневский пр-т', 'ул. Кировоградская',
      'ул. Руставели', 'ул. Лётчика Бабушкина', 'Сиреневый б-р', 'ул. Молостовых', 'Ярославское ш.', 'ул. Декабристов',
    ],
  },
  {
    code: 'SPB', name: 'Санкт-Петербург', region: 'Санкт-Петербург', federal: true, lat: 59.938676, lng: 30.314494, radiusKm: 13, population: 5600,
    phoneCodes: ['812'], index: [190000, 199406],
    districts: [
      'Центральный район', 'Адмиралтейский район', 'Василеостровский район', 'Петроградский район', 'Приморский район', 'Выборгский район',
      'Калининский район', 'Красногвардейский район', 'Невский район', 'Фрунзенский район', 'Московский район', 'Кировский район',
      'Красносельский район',
    ],
    settlements: [
      { name: 'Колпино', label: 'г. Колпино', lat: 59.750421, lng: 30.588823, radiusKm: 3, index: [196650, 196658], share: 0.03, streets: ['ул. Октябрьская', 'пр-т Ленина', 'Загородная ул.', 'ул. Тверская', 'б-р Трудящихся'] },
      { name: 'Пушкин', label: 'г. Пушкин', lat: 59.714405, lng: 30.396167, radiusKm: 2.5, index: [196600, 196609], share: 0.025, streets: ['Октябрьский б-р', 'Ленинградская ул.', 'Московская ул.', 'Средняя ул.', 'Кадетский б-р'] },
      { name: 'Петергоф', label: 'г. Петергоф', lat: 59.883301, lng: 29.908695, radiusKm: 2.5, index: [198510, 198518], share: 0.015, streets: ['Санкт-Петербургский пр-т', 'Эрлеровский б-р', 'ул. Разводная', 'Ропшинское ш.'] },
      { name: 'Кронштадт', label: 'г. Кронштадт', lat: 59.995311, lng: 29.766843, radiusKm: 1.5, index: [197760, 197762], share: 0.01, streets: ['пр-т Ленина', 'Советская ул.', 'Флотская ул.', 'ул. Восстания'] },
      { name: 'Сестрорецк', label: 'г. Сестрорецк', lat: 60.09821, lng: 29.963282, radiusKm: 2, index: [197701, 197706], share: 0.01, streets: ['Приморское ш.', 'ул. Мосина', 'Токарева ул.', 'Дубковское ш.'] },
    ],
    streets: [
      'Невский пр-т', 'Литейный пр-т', 'Садовая ул.', 'Гороховая ул.', 'Московский пр-т', 'Лиговский пр-т', 'Большой пр-т В.О.',
      'Каменноостровский пр-т', 'Гражданский пр-т', 'пр-т Просвещения', 'Ленинский пр-т', 'пр-т Ветеранов', 'Комендантский пр-т',
      'пр-т Энгельса', 'ул. Савушкина', 'Заневский пр-т', 'пр-т Большевиков', 'ул. Дыбенко', 'Индустриальный пр-т', 'ул. Ленсовета',
      'Пулковское ш.', 'ул. Марата', 'ул. Рубинштейна', 'Средний пр-т В.О.', 'ул. Типанова', 'Бухарестская ул.', 'Витебский пр-т',
      'пр-т Стачек', 'Кондратьевский пр-т', 'Светлановский пр-т', 'Богатырский пр-т', 'пр-т Испытателей', 'Товарищеский пр-т',
      'Дунайский пр-т', 'ул. Бела Куна', 'Малый пр-т П.С.', 'Большая Пушкарская ул.', 'Коломяжский пр-т', 'Ириновский пр-т',
    ],
  },
  {
    code: 'NSK', name: 'Новосибирск', region: 'Новосибирская область', lat: 55.030204, lng: 82.92043, radiusKm: 10, population: 1630,
    phoneCodes: ['383'], index: [630000, 630133],
    districts: ['Центральный район', 'Железнодорожный район', 'Заельцовский район', 'Калининский район', 'Дзержинский район', 'Октябрьский район', 'Первомайский район', 'Ленинский район', 'Кировский район'],
    settlements: [{ name: 'Академгородок', label: 'мкр. Академгородок', lat: 54.847024, lng: 83.093212, radiusKm: 2, index: [630090, 630090], share: 0.06, streets: ['Морской пр-т', 'ул. Ильича', 'ул. Пирогова', 'пр-т Академика Лаврентьева', 'ул. Терешковой'] }],
    streets: ['Красный пр-т', 'ул. Кирова', 'ул. Богдана Хмельницкого', 'ул. Дуси Ковальчук', 'ул. Титова', 'ул. Станиславского', 'ул. Петухова', 'ул. Бориса Богаткова', 'ул. Ватутина', 'ул. Фрунзе', 'ул. Выборная', 'ул. Сибиряков-Гвардейцев'],
  },
  {
    code: 'EKB', name: 'Екатеринбург', region: 'Свердловская область', lat: 56.838011, lng: 60.597474, radiusKm: 9, population: 1540,
    phoneCodes: ['343'], index: [620000, 620151],
    districts: ['Ленинский район', 'Верх-Исетский район', 'Железнодорожный район', 'Кировский район', 'Октябрьский район', 'Орджоникидзевский район', 'Чкаловский район', 'Академический район'],
    streets: ['пр-т Ленина', 'ул. Малышева', 'ул. 8 Марта', 'ул. Вайнера', 'ул. Белинского', 'ул. Куйбышева', 'ул. Репина', 'ул. Сулимова', 'ул. Щербакова', 'ул. Викулова', 'ул. Бебеля', 'ул. Амундсена', 'ул. Академика Сахарова'],
  },
  {
    code: 'KZN', name: 'Казань', region: 'Республика Татарстан', lat: 55.796127, lng: 49.106414, radiusKm: 9, population: 1320,
    phoneCodes: ['843'], index: [420000, 420141],
    districts: ['Вахитовский район', 'Авиастроительный район', 'Кировский район', 'Московский район', 'Ново-Савиновский район', 'Приволжский район', 'Советский район'],
    streets: ['ул. Баумана', 'пр-т Победы', 'ул. Чистопольская', 'пр-т Ямашева', 'ул. Гвардейская', 'ул. Декабристов', 'ул. Кремлёвская', 'Сибирский тракт', 'ул. Адоратского', 'ул. Фатыха Амирхана', 'ул. Юлиуса Фучика'],
  },
  {
    code: 'NNV', name: 'Нижний Новгород', region: 'Нижегородская область', lat: 56.326797, lng: 44.006516, radiusKm: 9, population: 1210,
    phoneCodes: ['831'], index: [603000, 603163],
    districts: ['Нижегородский район', 'Автозаводский район', 'Канавинский район', 'Ленинский район', 'Московский район', 'Приокский район', 'Советский район', 'Сормовский район'],
    streets: ['ул. Большая Покровская', 'ул. Рождественская', 'пр-т Гагарина', 'ул. Белинского', 'ул. Родионова', 'Московское ш.', 'пр-т Ленина', 'ул. Коминтерна', 'ул. Ванеева', 'ул. Бекетова', 'ул. Мончегорская'],
  },
  {
    code: 'CHL', name: 'Челябинск', region: 'Челябинская область', lat: 55.159902, lng: 61.402554, radiusKm: 8, population: 1180,
    phoneCodes: ['351'], index: [454000, 454139],
    districts: ['Центральный район', 'Калининский район', 'Курчатовский район', 'Ленинский район', 'Металлургический район', 'Советский район', 'Тракторозаводский район'],
    streets: ['пр-т Ленина', 'ул. Кирова', 'Комсомольский пр-т', 'ул. Братьев Кашириных', 'Свердловский пр-т', 'ул. Молодогвардейцев', 'ул. Чичерина', 'ул. Труда', 'ул. Энгельса', 'ул. Салютная'],
  },
  {
    code: 'SMR', name: 'Самара', region: 'Самарская область', lat: 53.195878, lng: 50.100202, radiusKm: 9, population: 1160,
    phoneCodes: ['846'], index: [443000, 443125],
    districts: ['Самарский район', 'Ленинский район', 'Октябрьский район', 'Железнодорожный район', 'Кировский район', 'Красноглинский район', 'Куйбышевский район', 'Промышленный район', 'Советский район'],
    streets: ['ул. Ленинградская', 'Московское ш.', 'ул. Куйбышева', 'ул. Ново-Садовая', 'ул. Победы', 'ул. Стара-Загора', 'ул. Галактионовская', 'ул. Молодогвардейская', 'пр-т Кирова', 'ул. Аэродромная'],
  },
  {
    code: 'OMS', name: 'Омск', region: 'Омская область', lat: 54.989342, lng: 73.368212, radiusKm: 8, population: 1110,
    phoneCodes: ['3812'], index: [644000, 644123],
    districts: ['Центральный район', 'Кировский район', 'Ленинский район', 'Октябрьский район', 'Советский район'],
    streets: ['ул. Ленина', 'пр-т Карла Маркса', 'ул. 10 лет Октября', 'пр-т Мира', 'ул. Красный Путь', 'ул. 70 лет Октября', 'ул. Лукашевича', 'ул. Химиков', 'ул. Масленникова'],
  },
  {
    code: 'RND', name: 'Ростов-на-Дону', region: 'Ростовская область', lat: 47.222078, lng: 39.720349, radiusKm: 8, population: 1140,
    phoneCodes: ['863'], index: [344000, 344116],
    districts: ['Кировский район', 'Ворошиловский район', 'Железнодорожный район', 'Ленинский район', 'Октябрьский район', 'Первомайский район', 'Пролетарский район', 'Советский район'],
    streets: ['ул. Большая Садовая', 'Будённовский пр-т', 'пр-т Ворошиловский', 'ул. Пушкинская', 'пр-т Стачки', 'пр-т Космонавтов', 'ул. Малиновского', 'пр-т Шолохова', 'ул. Зорге', 'ул. Текучёва'],
  },
  {
    code: 'UFA', name: 'Уфа', region: 'Республика Башкортостан', lat: 54.735147, lng: 55.958727, radiusKm: 9, population: 1160,
    phoneCodes: ['347'], index: [450000, 450112],
    districts: ['Кировский район', 'Дёмский район', 'Калининский район', 'Ленинский район', 'Октябрьский район', 'Орджоникидзевский район', 'Советский район'],
    streets: ['пр-т Октября', 'ул. Ленина', 'ул. Менделеева', 'ул. Комсомольская', 'ул. Пушкина', 'ул. Цюрупы', 'ул. Рихарда Зорге', 'пр-т Салавата Юлаева', 'ул. Баязита Бикбая'],
  },
  {
    code: 'KRS', name: 'Красноярск', region: 'Красноярский край', lat: 56.010563, lng: 92.852572, radiusKm: 9, population: 1200,
    phoneCodes: ['391'], index: [660000, 660135],
    districts: ['Центральный район', 'Железнодорожный район', 'Кировский район', 'Ленинский район', 'Октябрьский район', 'Свердловский район', 'Советский район'],
    streets: ['пр-т Мира', 'ул. Карла Маркса', 'ул. Ленина', 'пр-т Свободный', 'ул. Взлётная', 'ул. 9 Мая', 'ул. Партизана Железняка', 'пр-т Металлургов', 'ул. Киренского', 'пр-т им. газеты «Красноярский рабочий»'],
  },
  {
    code: 'VRN', name: 'Воронеж', region: 'Воронежская область', lat: 51.660781, lng: 39.200269, radiusKm: 8, population: 1050,
    phoneCodes: ['473'], index: [394000, 394095],
    districts: ['Центральный район', 'Железнодорожный район', 'Коминтерновский район', 'Левобережный район', 'Ленинский район', 'Советский район'],
    streets: ['пр-т Революции', 'ул. Плехановская', 'Московский пр-т', 'ул. Кольцовская', 'ул. Карла Маркса', 'Ленинский пр-т', 'ул. 20-летия Октября', 'ул. Хользунова', 'б-р Победы'],
  },
  {
    code: 'PRM', name: 'Пермь', region: 'Пермский край', lat: 58.010455, lng: 56.229443, radiusKm: 9, population: 1030,
    phoneCodes: ['342'], index: [614000, 614113],
    districts: ['Ленинский район', 'Дзержинский район', 'Индустриальный район', 'Кировский район', 'Мотовилихинский район', 'Орджоникидзевский район', 'Свердловский район'],
    streets: ['Комсомольский пр-т', 'ул. Ленина', 'ул. Петропавловская', 'ул. Сибирская', 'ул. Куйбышева', 'ул. Революции', 'ш. Космонавтов', 'ул. Мира', 'ул. Уральская', 'ул. Спешилова'],
  },
  {
    code: 'VGG', name: 'Волгоград', region: 'Волгоградская область', lat: 48.707067, lng: 44.516975, radiusKm: 12, population: 1020,
    phoneCodes: ['8442'], index: [400000, 400138],
    districts: ['Центральный район', 'Ворошиловский район', 'Дзержинский район', 'Кировский район', 'Красноармейский район', 'Краснооктябрьский район', 'Советский район', 'Тракторозаводский район'],
    streets: ['пр-т Ленина', 'ул. Рабоче-Крестьянская', 'Университетский пр-т', 'ул. Краснознаменская', 'ул. Землячки', 'ул. Маршала Ерёменко', 'ул. Хиросимы', 'ул. Мира', 'пр-т Героев Сталинграда'],
  },
  {
    code: 'KRD', name: 'Краснодар', region: 'Краснодарский край', lat: 45.03547, lng: 38.975313, radiusKm: 8, population: 1140,
    phoneCodes: ['861'], index: [350000, 350089],
    districts: ['Центральный округ', 'Западный округ', 'Карасунский округ', 'Прикубанский округ'],
    streets: ['ул. Красная', 'ул. Северная', 'ул. Ставропольская', 'ул. Уральская', 'ул. Московская', 'ул. Тургенева', 'ул. Российская', 'Кубанская наб.', 'ул. Дзержинского', 'ул. Восточно-Кругликовская', 'ул. Красных Партизан'],
  },
  {
    code: 'TMN', name: 'Тюмень', region: 'Тюменская область', lat: 57.152985, lng: 65.541227, radiusKm: 7, population: 850,
    phoneCodes: ['3452'], index: [625000, 625063],
    districts: ['Центральный округ', 'Восточный округ', 'Калининский округ', 'Ленинский округ'],
    streets: ['ул. Республики', 'ул. Мельникайте', 'ул. Широтная', 'ул. 50 лет Октября', 'Червишевский тракт', 'ул. Герцена', 'ул. Максима Горького', 'ул. Федюнинского'],
  },
  {
    code: 'SRT', name: 'Саратов', region: 'Саратовская область', lat: 51.533557, lng: 46.034257, radiusKm: 8, population: 900,
    phoneCodes: ['8452'], index: [410000, 410080],
    districts: ['Фрунзенский район', 'Волжский район', 'Заводской район', 'Кировский район', 'Ленинский район', 'Октябрьский район'],
    streets: ['пр-т Кирова', 'ул. Московская', 'ул. Чернышевского', 'ул. Радищева', 'ул. Астраханская', 'ул. Танкистов', 'пр-т 50 лет Октября', 'ул. Большая Казачья'],
  },
  {
    code: 'TLT', name: 'Тольятти', region: 'Самарская область', lat: 53.507852, lng: 49.420411, radiusKm: 8, population: 680,
    phoneCodes: ['8482'], index: [445000, 445057],
    districts: ['Центральный район', 'Автозаводский район', 'Комсомольский район'],
    streets: ['Ленинский пр-т', 'ул. Революционная', 'ул. Юбилейная', 'Автозаводское ш.', 'ул. Дзержинского', 'ул. Карла Маркса', 'б-р Ленина', 'Южное ш.'],
  },
  {
    code: 'IZH', name: 'Ижевск', region: 'Удмуртская Республика', lat: 56.852676, lng: 53.2069, radiusKm: 7, population: 640,
    phoneCodes: ['3412'], index: [426000, 426077],
    districts: ['Октябрьский район', 'Индустриальный район', 'Ленинский район', 'Первомайский район', 'Устиновский район'],
    streets: ['ул. Пушкинская', 'ул. Удмуртская', 'ул. Ленина', 'ул. Кирова', 'ул. Холмогорова', 'ул. 10 лет Октября', 'ул. Ворошилова', 'ул. Карла Маркса'],
  },
  {
    code: 'BRN', name: 'Барнаул', region: 'Алтайский край', lat: 53.347997, lng: 83.779806, radiusKm: 8, population: 630,
    phoneCodes: ['3852'], index: [656000, 656069],
    districts: ['Центральный район', 'Железнодорожный район', 'Индустриальный район', 'Ленинский район', 'Октябрьский район'],
    streets: ['пр-т Ленина', 'Павловский тракт', 'пр-т Строителей', 'Красноармейский пр-т', 'ул. Попова', 'пр-т Комсомольский', 'ул. Малахова', 'Змеиногорский тракт'],
  },
  {
    code: 'ULY', name: 'Ульяновск', region: 'Ульяновская область', lat: 54.316855, lng: 48.402557, radiusKm: 8, population: 620,
    phoneCodes: ['8422'], index: [432000, 432072],
    districts: ['Ленинский район', 'Железнодорожный район', 'Заволжский район', 'Засвияжский район'],
    streets: ['ул. Гончарова', 'ул. Гагарина', 'Московское ш.', 'пр-т Ульяновский', 'ул. Рябикова', 'пр-т Нариманова', 'ул. Минаева', 'пр-т Ленинского Комсомола'],
  },
  {
    code: 'IRK', name: 'Иркутск', region: 'Иркутская область', lat: 52.286387, lng: 104.28066, radiusKm: 8, population: 610,
    phoneCodes: ['3952'], index: [664000, 664082],
    districts: ['Правобережный округ', 'Октябрьский округ', 'Свердловский округ', 'Ленинский округ'],
    streets: ['ул. Карла Маркса', 'ул. Байкальская', 'ул. Ленина', 'ул. Лермонтова', 'ул. Советская', 'ул. Сергеева', 'ул. Ширямова', 'ул. Ржанова', 'ул. Урицкого'],
  },
  {
    code: 'KHB', name: 'Хабаровск', region: 'Хабаровский край', lat: 48.480223, lng: 135.071917, radiusKm: 9, population: 610,
    phoneCodes: ['4212'], index: [680000, 680054],
    districts: ['Центральный район', 'Железнодорожный район', 'Индустриальный район', 'Кировский район', 'Краснофлотский район'],
    streets: ['ул. Муравьёва-Амурского', 'ул. Карла Маркса', 'ул. Ленина', 'ул. Серышева', 'ул. Краснодарская', 'ул. Тихоокеанская', 'ул. Пионерская', 'Амурский б-р'],
  },
  {
    code: 'YAR', name: 'Ярославль', region: 'Ярославская область', lat: 57.626559, lng: 39.893813, radiusKm: 7, population: 570,
    phoneCodes: ['4852'], index: [150000, 150066],
    districts: ['Кировский район', 'Дзержинский район', 'Заволжский район', 'Красноперекопский район', 'Ленинский район', 'Фрунзенский район'],
    streets: ['ул. Свободы', 'пр-т Ленина', 'Московский пр-т', 'ул. Кирова', 'пр-т Октября', 'Ленинградский пр-т', 'ул. Урицкого', 'ул. Труфанова', 'пр-т Толбухина'],
  },
  {
    code: 'VVO', name: 'Владивосток', region: 'Приморский край', lat: 43.115536, lng: 131.885485, radiusKm: 7, population: 600,
    phoneCodes: ['423'], index: [690000, 690106],
    districts: ['Фрунзенский район', 'Ленинский район', 'Первомайский район', 'Первореченский район', 'Советский район'],
    streets: ['ул. Светланская', 'Океанский пр-т', 'ул. Алеутская', 'ул. Русская', 'пр-т 100-летия Владивостока', 'ул. Калинина', 'ул. Адмирала Фокина', 'ул. Некрасовская'],
  },
  {
    code: 'TMS', name: 'Томск', region: 'Томская область', lat: 56.484645, lng: 84.947649, radiusKm: 6, population: 570,
    phoneCodes: ['3822'], index: [634000, 634067],
    districts: ['Советский район', 'Кировский район', 'Ленинский район', 'Октябрьский район'],
    streets: ['пр-т Ленина', 'пр-т Фрунзе', 'ул. Учебная', 'Комсомольский пр-т', 'ул. Красноармейская', 'Иркутский тракт', 'ул. Елизаровых', 'пр-т Кирова'],
  },
  {
    code: 'ORB', name: 'Оренбург', region: 'Оренбургская область', lat: 51.768205, lng: 55.096964, radiusKm: 7, population: 550,
    phoneCodes: ['3532'], index: [460000, 460058],
    districts: ['Ленинский район', 'Дзержинский район', 'Промышленный район', 'Центральный район'],
    streets: ['ул. Советская', 'пр-т Победы', 'ул. Терешковой', 'ул. Чкалова', 'ул. Салмышская', 'пр-т Гагарина', 'ул. Пролетарская', 'Шарлыкское ш.'],
  },
  {
    code: 'KEM', name: 'Кемерово', region: 'Кемеровская область — Кузбасс', lat: 55.354968, lng: 86.087314, radiusKm: 7, population: 550,
    phoneCodes: ['3842'], index: [650000, 650071],
    districts: ['Центральный район', 'Заводский район', 'Кировский район', 'Ленинский район', 'Рудничный район'],
    streets: ['пр-т Советский', 'пр-т Ленина', 'ул. Весенняя', 'пр-т Октябрьский', 'ул. Тухачевского', 'пр-т Шахтёров', 'ул. Терешковой', 'ул. Свободы'],
  },
  {
    code: 'RZN', name: 'Рязань', region: 'Рязанская область', lat: 54.629216, lng: 39.736375, radiusKm: 6, population: 520,
    phoneCodes: ['4912'], index: [390000, 390048],
    districts: ['Советский район', 'Железнодорожный район', 'Московский район', 'Октябрьский район'],
    streets: ['ул. Ленина', 'Первомайский пр-т', 'Московское ш.', 'ул. Есенина', 'ул. Грибоедова', 'ул. Новосёлов', 'Народный б-р', 'Касимовское ш.'],
  },
  {
    code: 'AST', name: 'Астрахань', region: 'Астраханская область', lat: 46.347869, lng: 48.033574, radiusKm: 7, population: 470,
    phoneCodes: ['8512'], index: [414000, 414057],
    districts: ['Кировский район', 'Ленинский район', 'Советский район', 'Трусовский район'],
    streets: ['ул. Кирова', 'ул. Ленина', 'ул. Савушкина', 'ул. Татищева', 'ул. Боевая', 'ул. Николая Островского', 'ул. Звёздная', 'ул. Яблочкова'],
  },
  {
    code: 'PNZ', name: 'Пенза', region: 'Пензенская область', lat: 53.195063, lng: 45.018316, radiusKm: 6, population: 500,
    phoneCodes: ['8412'], index: [440000, 440068],
    districts: ['Ленинский район', 'Железнодорожный район', 'Октябрьский район', 'Первомайский район'],
    streets: ['ул. Московская', 'ул. Кирова', 'пр-т Победы', 'ул. Карпинского', 'ул. Ладожская', 'ул. Суворова', 'пр-т Строителей', 'ул. Антонова'],
  },
  {
    code: 'LPK', name: 'Липецк', region: 'Липецкая область', lat: 52.608826, lng: 39.599229, radiusKm: 6, population: 500,
    phoneCodes: ['4742'], index: [398000, 398059],
    districts: ['Советский район', 'Левобережный район', 'Октябрьский район', 'Правобережный район'],
    streets: ['ул. Советская', 'пр-т Победы', 'ул. Гагарина', 'ул. Космонавтов', 'пр-т Мира', 'ул. Катукова', 'ул. Теперика', 'ул. Неделина'],
  },
  {
    code: 'TUL', name: 'Тула', region: 'Тульская область', lat: 54.193122, lng: 37.617348, radiusKm: 6, population: 470,
    phoneCodes: ['4872'], index: [300000, 300062],
    districts: ['Центральный район', 'Зареченский район', 'Привокзальный район', 'Пролетарский район', 'Советский район'],
    streets: ['пр-т Ленина', 'ул. Советская', 'Красноармейский пр-т', 'ул. Металлистов', 'ул. Кирова', 'ул. Болдина', 'ул. Пузакова', 'ул. Октябрьская'],
  },
  {
    code: 'KIR', name: 'Киров', region: 'Кировская область', lat: 58.603591, lng: 49.668014, radiusKm: 6, population: 470,
    phoneCodes: ['8332'], index: [610000, 610050],
    districts: ['Ленинский район', 'Нововятский район', 'Октябрьский район', 'Первомайский район'],
    streets: ['ул. Ленина', 'ул. Карла Маркса', 'Октябрьский пр-т', 'ул. Воровского', 'ул. Горького', 'ул. Комсомольская', 'ул. Профсоюзная', 'ул. Московская'],
  },
  {
    code: 'KGD', name: 'Калининград', region: 'Калининградская область', lat: 54.710426, lng: 20.452214, radiusKm: 6, population: 490,
    phoneCodes: ['4012'], index: [236000, 236044],
    districts: ['Центральный район', 'Ленинградский район', 'Московский район'],
    streets: ['Ленинский пр-т', 'Московский пр-т', 'ул. Черняховского', 'Советский пр-т', 'ул. Горького', 'ул. Киевская', 'ул. Александра Невского', 'ул. Батальная'],
  },
  {
    code: 'SOC', name: 'Сочи', region: 'Краснодарский край', lat: 43.585525, lng: 39.723062, radiusKm: 4, population: 470,
    phoneCodes: ['862'], index: [354000, 354068],
    districts: ['Центральный район'],
    settlements: [
      { name: 'Адлер', label: 'мкр. Адлер', lat: 43.428567, lng: 39.923839, radiusKm: 3, index: [354340, 354349], share: 0.3, streets: ['ул. Ленина', 'ул. Кирова', 'ул. Гастелло', 'ул. Демократическая', 'ул. Мира'] },
      { name: 'Хоста', label: 'мкр. Хоста', lat: 43.516569, lng: 39.868993, radiusKm: 1.5, index: [354460, 354469], share: 0.1, streets: ['ул. Платановая', 'ул. Новая Заря', 'ул. Ялтинская'] },
      { name: 'Лазаревское', label: 'пос. Лазаревское', lat: 43.908433, lng: 39.333106, radiusKm: 2, index: [354200, 354208], share: 0.12, streets: ['ул. Победы', 'ул. Калараша', 'ул. Павлова', 'ул. Лазарева'] },
    ],
    streets: ['Курортный пр-т', 'ул. Навагинская', 'ул. Роз', 'ул. Горького', 'ул. Воровского', 'ул. Донская', 'ул. Виноградная', 'ул. Макаренко', 'ул. Пластунская'],
  },
  {
    code: 'BLS', name: 'Балашиха', region: 'Московская область', lat: 55.796339, lng: 37.938199, radiusKm: 5, population: 520,
    phoneCodes: ['495', '498'], index: [143900, 143989],
    districts: ['мкр. Центр', 'мкр. Железнодорожный', 'мкр. Павлино', 'мкр. Никольско-Архангельский', 'мкр. Салтыковка', 'мкр. Заря'],
    streets: ['ш. Энтузиастов', 'ул. Советская', 'пр-т Ленина', 'ул. Свердлова', 'Носовихинское ш.', 'ул. Твардовского', 'Объездное ш.', 'ул. Заречная'],
  },
  {
    code: 'KHM', name: 'Химки', region: 'Московская область', lat: 55.889361, lng: 37.44504, radiusKm: 4, population: 260,
    phoneCodes: ['495', '498'], index: [141400, 141446],
    districts: ['мкр. Центр', 'мкр. Сходня', 'мкр. Левобережный', 'мкр. Новокуркино', 'мкр. Подрезково'],
    streets: ['Ленинградское ш.', 'ул. Московская', 'пр-т Мельникова', 'ул. Молодёжная', 'ул. Родионова', 'ул. Кирова', 'Юбилейный пр-т'],
  },
  {
    code: 'POD', name: 'Подольск', region: 'Московская область', lat: 55.431136, lng: 37.544764, radiusKm: 4, population: 310,
    phoneCodes: ['4967', '495'], index: [142100, 142119],
    districts: ['мкр. Центральный', 'мкр. Кузнечики', 'мкр. Климовск', 'мкр. Красная Горка', 'мкр. Шепчинки'],
    streets: ['ул. Большая Серпуховская', 'ул. Кирова', 'Революционный пр-т', 'ул. Ленинградская', 'ул. Академика Доллежаля', 'ул. Веллинга', 'ул. Генерала Смирнова'],
  },
  {
    code: 'MYT', name: 'Мытищи', region: 'Московская область', lat: 55.910503, lng: 37.736168, radiusKm: 4, population: 240,
    phoneCodes: ['495', '498'], index: [141000, 141035],
    districts: ['мкр. Центр', 'мкр. Перловка', 'мкр. Строитель', 'мкр. Ярославский', 'мкр. Дружба'],
    streets: ['Новомытищинский пр-т', 'Олимпийский пр-т', 'ул. Мира', 'ул. Лётная', 'Ярославское ш.', 'ул. Колпакова', 'Шараповский пр-д'],
  },
  {
    code: 'KOR', name: 'Королёв', region: 'Московская область', lat: 55.922212, lng: 37.854629, radiusKm: 3.5, population: 225,
    phoneCodes: ['495', '498'], index: [141060, 141092],
    districts: ['мкр. Центр', 'мкр. Болшево', 'мкр. Первомайский', 'мкр. Юбилейный', 'мкр. Текстильщик'],
    streets: ['пр-т Королёва', 'ул. Исаева', 'ул. Пионерская', 'ул. Горького', 'пр-т Космонавтов', 'ул. Калининградская', 'ул. Тихонравова'],
  },
];

// Last, so the geography above is initialised when the script runs.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main(process.argv.slice(2));
