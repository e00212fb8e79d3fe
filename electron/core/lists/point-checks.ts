import { said, type MessageRef } from '../../../shared/messages';
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

export interface PointRefusal extends MessageRef {
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
  if (!point.enabled) out.push({ reason: 'disabled', ...said('rule.pointClosed', { id: point.id }) });
  if (role === 'out' && point.availableOperation === 1) out.push({ reason: 'operation', ...said('rule.pointNoHandOut', { id: point.id }) });
  if (role === 'in' && point.availableOperation === 2) out.push({ reason: 'operation', ...said('rule.pointNoTakeIn', { id: point.id }) });
  const w = parcel.weight;
  if (w !== undefined && limits.maxWeight !== null && w > limits.maxWeight) {
    out.push({ reason: 'weight', ...said('rule.pointOverWeight', { weight: w, max: limits.maxWeight }) });
  }
  if (w !== undefined && limits.minWeight !== null && w < limits.minWeight) {
    out.push({ reason: 'weight', ...said('rule.pointUnderWeight', { weight: w, min: limits.minWeight }) });
  }
  const [a, b, c] = sortedSizes(parcel);
  const cell = [limits.maxSizeA, limits.maxSizeB, limits.maxSizeC];
  if ([a, b, c].some((size, i) => cell[i] !== null && size > (cell[i] as number))) {
    out.push({ reason: 'size', ...said('rule.pointSize', { size: `${a}×${b}×${c}`, cell: cell.map((x) => x ?? '–').join('×') }) });
  } else if (limits.maxSizeSum !== null && a + b + c > limits.maxSizeSum) {
    out.push({ reason: 'size', ...said('rule.pointSizeSum', { sum: a + b + c, max: limits.maxSizeSum }) });
  }
  const cod = parcel.codCost ?? 0;
  if (cod > 0 && point.cod !== 1) out.push({ reason: 'cod', ...said('rule.pointNoCod', { id: point.id }) });
  else if (cod > 0 && limits.maxCod !== null && cod > limits.maxCod) {
    out.push({ reason: 'cod', ...said('rule.pointOverCod', { cod, max: limits.maxCod }) });
  }
  return out;
}
