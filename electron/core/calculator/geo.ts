import type { CalculatorPlace } from '../../../shared/schemas/calculator';

/**
 * Just enough geography to price and schedule a parcel offline: the larger Russian cities with
 * their coordinates. A place is resolved by its city, else a city named in its address line, else the
 * nearest known city to its coordinates (within 60 km).
 */
export interface KnownCity {
  name: string;
  lat: number;
  lng: number;
  /** Million-plus cities: delivery services run more couriers there. */
  large: boolean;
}

const city = (name: string, lat: number, lng: number, large = false): KnownCity => ({ name, lat, lng, large });

export const knownCities: readonly KnownCity[] = [
  city('Москва', 55.7558, 37.6176, true),
  city('Санкт-Петербург', 59.9343, 30.3351, true),
  city('Новосибирск', 55.0084, 82.9357, true),
  city('Екатеринбург', 56.8389, 60.6057, true),
  city('Казань', 55.7961, 49.1064, true),
  city('Нижний Новгород', 56.2965, 43.9361, true),
  city('Челябинск', 55.1644, 61.4368, true),
  city('Самара', 53.1959, 50.1002, true),
  city('Омск', 54.9885, 73.3242, true),
  city('Ростов-на-Дону', 47.2357, 39.7015, true),
  city('Уфа', 54.7388, 55.9721, true),
  city('Красноярск', 56.0153, 92.8932, true),
  city('Воронеж', 51.672, 39.1843, true),
  city('Пермь', 58.0105, 56.2502, true),
  city('Волгоград', 48.708, 44.5133, true),
  city('Краснодар', 45.0355, 38.9753, true),
  city('Саратов', 51.5331, 46.0342),
  city('Тюмень', 57.1522, 65.5272),
  city('Ижевск', 56.8526, 53.2045),
  city('Барнаул', 53.3548, 83.7698),
  city('Иркутск', 52.2869, 104.305),
  city('Хабаровск', 48.4802, 135.0719),
  city('Владивосток', 43.1155, 131.8855),
  city('Ярославль', 57.6261, 39.8845),
  city('Тверь', 56.8587, 35.9176),
  city('Тула', 54.1931, 37.6173),
  city('Калининград', 54.7104, 20.4522),
  city('Сочи', 43.6028, 39.7342),
  city('Мурманск', 68.9585, 33.0827),
  city('Архангельск', 64.5401, 40.5433),
  city('Якутск', 62.0355, 129.6755),
];

/** A place as the calculator uses it. */
export interface ResolvedPlace {
  countryCode: string;
  /** The city as given or found; null when nothing names one. */
  city: string | null;
  /** The known city it is, if any. */
  known: KnownCity | null;
  lat: number | null;
  lng: number | null;
}

/** Case, "ё", a leading "г." and extra spaces do not matter when comparing city names. */
export const normalizeCity = (name: string) =>
  name
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/^\s*(г\.|город)\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();

const byName = new Map(knownCities.map((c) => [normalizeCity(c.name), c]));

/** The great-circle distance in km. */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

function cityInAddress(address: string): KnownCity | null {
  const text = ` ${normalizeCity(address).replace(/[,.;()]/g, ' ')} `;
  // Longest names first, so "Нижний Новгород" is not taken for a street called "Новгородская".
  const names = [...byName.keys()].sort((a, b) => b.length - a.length);
  const name = names.find((n) => text.includes(` ${n} `));
  return name ? byName.get(name)! : null;
}

function nearestKnown(lat: number, lng: number): KnownCity | null {
  let best: KnownCity | null = null;
  let bestKm = 60;
  for (const c of knownCities) {
    const km = distanceKm({ lat, lng }, c);
    if (km < bestKm) [best, bestKm] = [c, km];
  }
  return best;
}

/** Resolves a calculator place to a city and coordinates where that is possible. */
export function resolvePlace(place: CalculatorPlace | undefined): ResolvedPlace {
  if (!place) return { countryCode: 'RU', city: null, known: null, lat: null, lng: null };
  const hasCoordinates = place.lat !== undefined && place.lng !== undefined;
  // A city that is named but unknown stays unknown: its address line may well name the region's capital.
  const known = place.city
    ? (byName.get(normalizeCity(place.city)) ?? null)
    : ((place.addressString ? cityInAddress(place.addressString) : null) ?? (hasCoordinates ? nearestKnown(place.lat!, place.lng!) : null));
  return {
    countryCode: place.countryCode,
    city: place.city ?? known?.name ?? null,
    known,
    lat: hasCoordinates ? place.lat! : (known?.lat ?? null),
    lng: hasCoordinates ? place.lng! : (known?.lng ?? null),
  };
}

/** Kilometres between two places, 0 within one city, null when either cannot be placed on the map. */
export function distanceBetween(a: ResolvedPlace, b: ResolvedPlace): number | null {
  if (a.city && b.city && normalizeCity(a.city) === normalizeCity(b.city)) return 0;
  if (a.lat === null || a.lng === null || b.lat === null || b.lng === null) return null;
  return distanceKm({ lat: a.lat, lng: a.lng }, { lat: b.lat, lng: b.lng });
}
