/**
 * Splits a Russian address written on one line into the parts of the order payload:
 * "101000, г. Москва, ул. Тверская, д. 7, корп. 2, кв. 5", "Санкт-Петербург, Невский пр-т 28-5",
 * "Московская обл, Одинцовский р-н, г Одинцово, ул Маршала Жукова 10к2 кв 15". Abbreviations are
 * recognised with and without dots, before or after the name. The street keeps its type as written
 * ("ул. Тверская", "Невский пр-т"); the city loses its marker ("г. Москва" → "Москва").
 */

export interface ParsedAddress {
  index?: string;
  countryCode?: string;
  region?: string;
  city?: string;
  street?: string;
  house?: string;
  block?: string;
  office?: string;
}

const countries: [RegExp, string][] = [
  [/^(россия|рф|российская\s+федерация|russia|russian\s+federation)$/i, 'RU'],
  [/^(беларусь|белоруссия|республика\s+беларусь|belarus)$/i, 'BY'],
  [/^(казахстан|республика\s+казахстан|kazakhstan)$/i, 'KZ'],
  [/^(армения|республика\s+армения|armenia)$/i, 'AM'],
  [/^(кыргызстан|киргизия|кыргызская\s+республика|kyrgyzstan)$/i, 'KG'],
  [/^(узбекистан|uzbekistan)$/i, 'UZ'],
];

/** Cities whose region is the city itself. */
export const federalCities = new Set(['москва', 'санкт-петербург', 'севастополь']);

const words = (list: string) => new Set(list.split(' '));
const regionMarks = words('обл область край респ республика ао а.о автономный округ аобл');
const districtMarks = words('р-н район м.о го г.о м.р-н');
const cityMarks = words('г гор город пос п посёлок поселок пгт рп р.п с село дер деревня ст-ца станица х хутор аул снт нп');
const streetMarks = words(
  'ул улица пр-т пр-кт просп проспект пр пер переулок ш шоссе наб набережная пл площадь б-р бульвар бул проезд пр-д туп тупик ' +
    'аллея ал мкр мкрн микрорайон линия лин кв-л квартал тракт дорога дор спуск въезд просек тер территория',
);
const houseMarks = words('д дом влд вл владение зд здание');
const blockMarks = words('к корп корпус стр строение лит литера литер');
const officeMarks = words('кв квартира оф офис пом помещение комн комната каб кабинет');

/** A word without its trailing dot, lower case: "Ул." → "ул". */
const bare = (token: string) => token.replace(/\.+$/, '').toLowerCase().replace(/ё/g, 'е');
const isMark = (set: Set<string>, token: string) => set.has(bare(token)) || (set === cityMarks && bare(token) === 'пос');

const housePattern = /^(\d+[\p{L}]?(?:\/\d+[\p{L}]?)?)(?:-(\d+))?$/u;
const houseWithBlock = /^(\d+[\p{L}]?(?:\/\d+)?)(к|корп|стр|с)\.?(\d+[\p{L}]?)$/iu;
const gluedMark = /^(к|корп|стр|кв|оф|д)\.?(\d+[\p{L}]?(?:\/\d+)?)$/iu;

interface Tail {
  house?: string;
  block?: string;
  office?: string;
}

/**
 * Reads `tokens` as the number part of an address ("7", "28-5", "10к2 кв 15", "д. 7 корп. 2 кв. 5");
 * undefined when something in it is not a number part.
 */
function readTail(tokens: string[]): Tail | undefined {
  const tail: Tail = {};
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1];
    let m: RegExpExecArray | null;
    if ((m = houseWithBlock.exec(t)) && tail.house === undefined) {
      tail.house = m[1];
      tail.block = m[3];
    } else if ((m = housePattern.exec(t)) && tail.house === undefined) {
      tail.house = m[1];
      if (m[2]) tail.office = m[2];
    } else if ((m = gluedMark.exec(t))) {
      const mark = m[1].toLowerCase();
      if (mark === 'д' && tail.house === undefined) tail.house = m[2];
      else if ((mark === 'к' || mark === 'корп' || mark === 'стр') && tail.block === undefined) tail.block = m[2];
      else if ((mark === 'кв' || mark === 'оф') && tail.office === undefined) tail.office = m[2];
      else return undefined;
    } else if (next !== undefined && isMark(houseMarks, t) && tail.house === undefined && /^\d/.test(next)) {
      const h = houseWithBlock.exec(next) ?? null;
      if (h) {
        tail.house = h[1];
        tail.block = h[3];
      } else {
        const plain = housePattern.exec(next);
        if (!plain) return undefined;
        tail.house = plain[1];
        if (plain[2]) tail.office = plain[2];
      }
      i++;
    } else if (next !== undefined && isMark(blockMarks, t) && tail.block === undefined) {
      tail.block = next.replace(/\.$/, '');
      i++;
    } else if (next !== undefined && isMark(officeMarks, t) && tail.office === undefined) {
      tail.office = next.replace(/\.$/, '');
      i++;
    } else {
      return undefined;
    }
  }
  return tail;
}

/** The shortest number part at the end of a segment: `[name tokens, tail]`. */
function splitTail(tokens: string[]): [string[], Tail | undefined] {
  for (let k = 0; k < tokens.length; k++) {
    const first = tokens[k];
    const startsTail = /^\d/.test(first) || isMark(houseMarks, first) || isMark(blockMarks, first) || isMark(officeMarks, first);
    if (!startsTail) continue;
    // "д. Ивановка" is a village, not a house: a house mark must be followed by a number.
    const tail = readTail(tokens.slice(k));
    if (tail) return [tokens.slice(0, k), tail];
  }
  return [tokens, undefined];
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Parses one address line; parts it cannot find stay undefined. */
export function parseAddress(text: string): ParsedAddress {
  const result: ParsedAddress = {};
  const normalized = text
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .replace(/[–—]/g, '-')
    // "ул.Тверская", "д.7" → "ул. Тверская", "д. 7" (but not "С.-Петербург")
    .replace(/(\p{L})\.(?=[\p{L}\d])/gu, '$1. ')
    .replace(/;/g, ',');
  const segments = normalized.split(',').map(clean).filter(Boolean);
  const plainNames: string[] = []; // segments of letters only with no marker: region and/or city
  const districts: string[] = [];

  const setTail = (tail: Tail) => {
    if (tail.house !== undefined && result.house === undefined) result.house = tail.house;
    else if (tail.house !== undefined && result.office === undefined && tail.block === undefined && tail.office === undefined) result.office = tail.house;
    if (tail.block !== undefined && result.block === undefined) result.block = tail.block;
    if (tail.office !== undefined && result.office === undefined) result.office = tail.office;
  };

  for (let segment of segments) {
    // a postcode, alone or in front: "101000" or "101000 Москва"
    const idx = /^(\d{6})(?:\s+(.*))?$/.exec(segment);
    if (idx && result.index === undefined) {
      result.index = idx[1];
      if (!idx[2]) continue;
      segment = idx[2];
    }
    const country = countries.find(([re]) => re.test(segment));
    if (country) {
      result.countryCode = country[1];
      continue;
    }
    const tokens = segment.split(' ');
    const firstMark = tokens[0];
    const lastMark = tokens[tokens.length - 1];
    const has = (set: Set<string>) => tokens.some((t) => isMark(set, t)) || (set === regionMarks && /автономн\S*\s+округ/i.test(segment));

    if (tokens.length > 1 && has(districtMarks) && !has(streetMarks)) {
      districts.push(segment);
      continue;
    }
    if (tokens.length > 1 && has(regionMarks) && !has(streetMarks) && !/^\d/.test(lastMark)) {
      result.region ??= segment;
      continue;
    }
    // "г. Москва", "пос. Внуково", "д. Ивановка", "Москва г." — but "д. 7" is a house
    const cityFirst = tokens.length > 1 && (isMark(cityMarks, firstMark) || bare(firstMark) === 'д') && /^\p{L}/u.test(tokens[1]);
    const cityLast = tokens.length > 1 && isMark(cityMarks, lastMark) && /^\p{L}/u.test(tokens[0]) && !has(streetMarks);
    if ((cityFirst || cityLast) && !has(streetMarks)) {
      const name = cityFirst ? tokens.slice(1) : tokens.slice(0, -1);
      // a name followed by numbers after a village mark ("д. Ивановка 5") keeps its tail
      const [nameTokens, tail] = splitTail(name);
      if (result.city === undefined) result.city = clean(nameTokens.join(' '));
      else if (result.street === undefined) result.street = clean(segment);
      if (tail) setTail(tail);
      continue;
    }

    const [nameTokens, tail] = splitTail(tokens);
    if (nameTokens.length) {
      const name = clean(nameTokens.join(' '));
      const isStreet = nameTokens.some((t) => isMark(streetMarks, t)) || /^\d+-[яйе]$/u.test(nameTokens[0]);
      if ((isStreet || tail) && result.street === undefined) result.street = name;
      else if (!isStreet && !tail) plainNames.push(name);
    }
    if (tail) setTail(tail);
  }

  // Unmarked names come in the order region, city, street: "Москва, Тверская, 7" has its street unmarked
  // when a bare house number follows; of the rest the last is the city and one before it the region.
  if (result.street === undefined && result.house !== undefined && plainNames.length > (result.city === undefined ? 1 : 0)) {
    result.street = plainNames.pop();
  }
  if (plainNames.length) {
    if (result.city === undefined) result.city = plainNames.pop();
    if (plainNames.length && result.region === undefined) result.region = plainNames[0];
  }
  if (districts.length) result.region = clean([result.region, ...districts].filter(Boolean).join(', '));
  if (result.city && result.region === undefined && federalCities.has(result.city.toLowerCase().replace(/ё/g, 'е'))) result.region = result.city;
  return result;
}
