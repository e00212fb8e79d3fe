import type { Point, PointSearch } from '../../shared/schemas/lists';
import { numberOf, totalWeight, type OrderFormValues, type PlaceValues } from './form-values';

/** What a pickup point has to take: the total weight, the largest sides of any place (largest first), the COD. */
export interface OrderParcel {
  weight?: number;
  length?: number;
  width?: number;
  height?: number;
  codCost?: number;
}

/** Sides of each place largest first, then the largest of each rank over the places: the box every place fits in. */
export function parcelOf(places: readonly PlaceValues[], codCost?: number): OrderParcel {
  const sides = places.map((p) => [numberOf(p.length) ?? 0, numberOf(p.width) ?? 0, numberOf(p.height) ?? 0].sort((a, b) => b - a));
  const [length, width, height] = [0, 1, 2].map((i) => Math.max(0, ...sides.map((s) => s[i])));
  const parcel: OrderParcel = {};
  const weight = totalWeight(places);
  if (weight !== undefined && weight > 0) parcel.weight = weight;
  if (length > 0) Object.assign(parcel, { length, width, height });
  if (codCost !== undefined && codCost > 0) parcel.codCost = codCost;
  return parcel;
}

/** The picker's own filters, beside what the order itself demands. */
export interface PointFilters {
  city: string;
  search: string;
  /** Only points that take cash on delivery (forced when the order has COD). */
  cod: boolean;
  fittingRoom: boolean;
  /** `all`, or only pickup points, post offices or parcel lockers. */
  kind: PointKind;
}

export type PointKind = 'all' | 'pickup' | 'office' | 'locker';

/** The point types (1 pickup point, 2 parcel locker, 3 post office) of each kind of the picker. */
export const pointKindTypes: Readonly<Record<Exclude<PointKind, 'all'>, Point['type'][]>> = { pickup: [1], office: [3], locker: [2] };

/**
 * The kinds the picker offers: those the tariff delivers to (`tariffTypes`, none: every kind), post offices only where
 * the service has some. `all` leads unless the tariff leaves a single kind.
 */
export function offeredKinds(tariffTypes: readonly Point['type'][] | undefined, hasOffices: boolean): PointKind[] {
  const kinds = (Object.keys(pointKindTypes) as Exclude<PointKind, 'all'>[]).filter(
    (kind) => (kind !== 'office' || hasOffices) && (!tariffTypes || pointKindTypes[kind].some((t) => tariffTypes.includes(t))),
  );
  return kinds.length > 1 ? ['all', ...kinds] : kinds;
}

export const pointPageSize = 50;

/**
 * The `lists.points` query for the picker: points of the chosen service that hand orders out, in the
 * city, matching the words typed, and taking this order (weight, sizes against a locker's cells
 * maxSizeA/B/C, cash on delivery): only points that fit the order are offered.
 */
export function pointSearchOf(values: OrderFormValues, filters: PointFilters, tariffTypes?: readonly Point['type'][]): PointSearch {
  const codCost = numberOf(values.cost.codCost);
  const parcel = parcelOf(values.places, codCost);
  const query = placeQuery(values.order.providerKey, 'issue', filters, tariffTypes);
  if (filters.cod || (parcel.codCost ?? 0) > 0) query.cod = true;
  if (filters.fittingRoom) query.fittingRoom = true;
  if (Object.keys(parcel).length) query.parcel = parcel;
  return query;
}

/**
 * The `lists.points` query for the drop-off office: the service's points that take parcels in
 * (availableOperation 1 or 3), in the city, matching the words typed. The shop brings the parcel
 * there itself, so the recipient's COD and the point's hand-out limits do not narrow it.
 */
export function dropOffSearchOf(providerKey: string, filters: PointFilters): PointSearch {
  return placeQuery(providerKey, 'acceptance', filters);
}

/**
 * What both pickers ask: the service's points doing the operation, in the city, with the words typed, of the kind
 * and of the types the tariff delivers to (a kind the tariff does not take leaves the tariff's types).
 */
function placeQuery(providerKey: string, operation: 'issue' | 'acceptance', filters: PointFilters, tariffTypes?: readonly Point['type'][]): PointSearch {
  const query: PointSearch = { providerKey, operation, limit: pointPageSize };
  if (filters.city.trim()) query.city = filters.city.trim();
  if (filters.search.trim()) query.search = filters.search.trim();
  const kindTypes = filters.kind === 'all' ? undefined : pointKindTypes[filters.kind];
  const types = tariffTypes ? (kindTypes?.filter((t) => tariffTypes.includes(t)) ?? []) : kindTypes;
  if (types?.length) query.types = [...types];
  else if (tariffTypes) query.types = [...tariffTypes];
  return query;
}

/** A point's hours as groups of days with the same hours: [{ from: 1, to: 5, hours: '10:00–20:00' }, { from: 7, to: 7, hours: null }]. */
export function worktimeGroups(worktime: Readonly<Record<string, string>>): { from: number; to: number; hours: string | null }[] {
  const groups: { from: number; to: number; hours: string | null }[] = [];
  for (let day = 1; day <= 7; day++) {
    const raw = worktime[String(day)];
    const hours = raw ? raw.replace('/', '–') : null;
    const last = groups.at(-1);
    if (last && last.hours === hours && last.to === day - 1) last.to = day;
    else groups.push({ from: day, to: day, hours });
  }
  return groups;
}
