import type { OrderCreate } from '../../shared/schemas/order';
import type { Rng } from './prng';

/**
 * Cities with a rough weight of how often a small shop ships there: the cities the sandbox express
 * service's couriers reach (electron/core/providers/sandbox/intake.ts doorCities), so every generated
 * door-to-door order is one the service accepts and the whole pipeline runs.
 */
export const cities: readonly { name: string; region: string; weight: number }[] = [
  { name: 'Москва', region: 'Москва', weight: 30 },
  { name: 'Санкт-Петербург', region: 'Санкт-Петербург', weight: 14 },
  { name: 'Новосибирск', region: 'Новосибирская область', weight: 5 },
  { name: 'Екатеринбург', region: 'Свердловская область', weight: 5 },
  { name: 'Казань', region: 'Республика Татарстан', weight: 4 },
  { name: 'Нижний Новгород', region: 'Нижегородская область', weight: 4 },
  { name: 'Челябинск', region: 'Челябинская область', weight: 3 },
  { name: 'Самара', region: 'Самарская область', weight: 3 },
  { name: 'Ростов-на-Дону', region: 'Ростовская область', weight: 3 },
  { name: 'Уфа', region: 'Республика Башкортостан', weight: 3 },
  { name: 'Краснодар', region: 'Краснодарский край', weight: 3 },
  { name: 'Воронеж', region: 'Воронежская область', weight: 3 },
  { name: 'Пермь', region: 'Пермский край', weight: 3 },
  { name: 'Балашиха', region: 'Московская область', weight: 2 },
  { name: 'Подольск', region: 'Московская область', weight: 2 },
  { name: 'Химки', region: 'Московская область', weight: 2 },
];

const cityTotal = cities.reduce((s, c) => s + c.weight, 0);

/** A city by weight: Moscow and Saint Petersburg most often, like a real shop's orders. */
export function pickCity(rng: Rng) {
  let n = rng.next() * cityTotal;
  for (const c of cities) {
    n -= c.weight;
    if (n < 0) return c;
  }
  return cities[0];
}

const firstNames = ['Иван', 'Анна', 'Сергей', 'Мария', 'Алексей', 'Елена', 'Дмитрий', 'Ольга', 'Андрей', 'Татьяна', 'Михаил', 'Наталья', 'Павел', 'Юлия', 'Николай', 'Ирина', 'Артём', 'Светлана', 'Кирилл', 'Екатерина'];
const lastNames = ['Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Новиков', 'Фёдоров', 'Морозов', 'Волков', 'Алексеев', 'Лебедев', 'Семёнов', 'Егоров', 'Павлов', 'Козлов', 'Степанов', 'Николаев'];
const feminine = new Set(['Анна', 'Мария', 'Елена', 'Ольга', 'Татьяна', 'Наталья', 'Юлия', 'Ирина', 'Светлана', 'Екатерина']);
const streets = ['Ленина', 'Мира', 'Советская', 'Гагарина', 'Садовая', 'Молодёжная', 'Лесная', 'Школьная', 'Центральная', 'Новая', 'Набережная', 'Пушкина', 'Строителей', 'Кирова', 'Октябрьская'];
const goods = [
  ['Футболка хлопковая', 'TS'], ['Кепка', 'CP'], ['Кружка керамическая', 'MG'], ['Чехол для телефона', 'PC'], ['Носки, 3 пары', 'SK'],
  ['Блокнот А5', 'NB'], ['Рюкзак городской', 'BP'], ['Термос 0,5 л', 'TH'], ['Шарф вязаный', 'SC'], ['Свеча ароматическая', 'CN'],
] as const;

/** A Russian full name, the gender of the last name matching the first. */
export function personName(rng: Rng) {
  const first = rng.pick(firstNames);
  const last = rng.pick(lastNames);
  return `${feminine.has(first) ? `${last}а` : last} ${first}`;
}

export const phone = (rng: Rng) => `+79${rng.digits(9)}`;

/** An item row of an order: what, how many, price and weight. */
export function item(rng: Rng) {
  const [description, prefix] = rng.pick(goods);
  const price = rng.int(2, 60) * 50; // 100–3000 ₽ in 50 ₽ steps
  return { description, articul: `${prefix}-${rng.digits(3)}`, quantity: rng.int(1, 3), cost: price, assessedCost: price, weight: rng.int(1, 15) * 100 };
}

/**
 * A valid door-to-door order for the sandbox express service (tariff 103, no restrictions on cash on
 * delivery), as POST /orders or an import row would give it.
 */
export function orderPayload(rng: Rng, clientNumber: string, itemCount = 2): OrderCreate {
  const city = pickCity(rng);
  const items = Array.from({ length: itemCount }, () => item(rng));
  const weight = items.reduce((s, i) => s + i.weight * i.quantity, 0) + 200;
  const sum = items.reduce((s, i) => s + i.cost * i.quantity, 0);
  return {
    order: { clientNumber, providerKey: 'sandbox-express', deliveryType: 1, pickupType: 1, tariffId: 103, weight, length: 30, width: 20, height: 10 },
    // Cash on delivery covers the goods plus delivery, as the interface requires; the rest are prepaid.
    cost: { assessedCost: sum, codCost: rng.chance(0.6) ? sum + 390 : 0, deliveryCost: 390 },
    sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
    recipient: {
      countryCode: 'RU',
      region: city.region,
      city: city.name,
      street: rng.pick(streets),
      house: String(rng.int(1, 120)),
      office: rng.chance(0.7) ? String(rng.int(1, 300)) : undefined,
      contactName: personName(rng),
      phone: phone(rng),
    },
    places: [{ weight, length: 30, width: 20, height: 10, items }],
  } as OrderCreate;
}
