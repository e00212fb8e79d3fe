import type { Point } from '../../../shared/schemas/lists';

/** What an order asks of a point: grams, centimetres, rubles. */
export interface Parcel {
  weight?: number;
  length?: number;
  width?: number;
  height?: number;
  codCost?: number;
}

/** `out`: the point hands the order to the recipient (pointOutId); `in`: it takes the order in (pointInId). */
export type PointRole = 'out' | 'in';

export interface PointRefusal {
  /** Which part of the order the point cannot take. */
  reason: 'disabled' | 'operation' | 'weight' | 'size' | 'cod';
  message: string;
}

/** Sizes largest first, so they compare with a locker cell's A ≥ B ≥ C. */
export const sortedSizes = (p: Parcel) => [p.length ?? 0, p.width ?? 0, p.height ?? 0].sort((a, b) => b - a);

/**
 * Why a point cannot take a parcel (empty when it can). A missing limit is no limit; cash on
 * delivery needs `cod = 1` and at most `maxCod`. The picker's `lists.points` parcel filter
 * applies the same rules in SQL.
 */
export function pointRefusals(point: Point, parcel: Parcel, role?: PointRole): PointRefusal[] {
  const out: PointRefusal[] = [];
  const { limits } = point;
  if (!point.enabled) out.push({ reason: 'disabled', message: `point ${point.id} is closed` });
  if (role === 'out' && point.availableOperation === 1) out.push({ reason: 'operation', message: `point ${point.id} does not hand orders out` });
  if (role === 'in' && point.availableOperation === 2) out.push({ reason: 'operation', message: `point ${point.id} does not take orders in` });
  const w = parcel.weight;
  if (w !== undefined && limits.maxWeight !== null && w > limits.maxWeight) {
    out.push({ reason: 'weight', message: `${w} g is over the point's limit of ${limits.maxWeight} g` });
  }
  if (w !== undefined && limits.minWeight !== null && w < limits.minWeight) {
    out.push({ reason: 'weight', message: `${w} g is under the point's minimum of ${limits.minWeight} g` });
  }
  const [a, b, c] = sortedSizes(parcel);
  const cell = [limits.maxSizeA, limits.maxSizeB, limits.maxSizeC];
  if ([a, b, c].some((size, i) => cell[i] !== null && size > (cell[i] as number))) {
    out.push({ reason: 'size', message: `${a}×${b}×${c} cm does not fit the point's ${cell.map((x) => x ?? '–').join('×')} cm` });
  } else if (limits.maxSizeSum !== null && a + b + c > limits.maxSizeSum) {
    out.push({ reason: 'size', message: `the sum of the sizes, ${a + b + c} cm, is over the point's limit of ${limits.maxSizeSum} cm` });
  }
  const cod = parcel.codCost ?? 0;
  if (cod > 0 && point.cod !== 1) out.push({ reason: 'cod', message: `point ${point.id} does not take cash on delivery` });
  else if (cod > 0 && limits.maxCod !== null && cod > limits.maxCod) {
    out.push({ reason: 'cod', message: `cash on delivery of ${cod} ₽ is over the point's limit of ${limits.maxCod} ₽` });
  }
  return out;
}
