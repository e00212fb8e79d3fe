import type { StatusKey } from '../../../../shared/status-keys';
import { createHash } from 'node:crypto';

const hour = 3_600_000;

/** How a sandbox shipment ends. */
export type Outcome = 'delivered' | 'returned' | 'partialReturn';

/** What of the shipment shapes its path: the last mile (door or point) and whether a part can come back. */
export interface ShipmentShape {
  /** 1 to the door (a courier: delivering), 2 to a pickup point (readyForRecipient). */
  deliveryType: 1 | 2;
  /** Units in the order; a single unit cannot come back partly. */
  units: number;
}

/** Most parcels are delivered; some come back whole, a few partly. Weights in percent. */
const outcomeWeights: [Outcome, number][] = [
  ['delivered', 80],
  ['returned', 12],
  ['partialReturn', 8],
];

const fraction = (providerNumber: string) => createHash('sha256').update(providerNumber).digest().readUInt32BE(0) % 100;

/** How a shipment ends: a pure function of its tracking number, so it is the same every run. */
export function outcomeFor(providerNumber: string): Outcome {
  const n = fraction(providerNumber);
  let acc = 0;
  for (const [outcome, weight] of outcomeWeights) {
    acc += weight;
    if (n < acc) return outcome;
  }
  return 'delivered';
}

/** Statuses and hours after registration of a shipment's whole path. */
export function stepsFor(providerNumber: string, shape: ShipmentShape): [StatusKey, number][] {
  let outcome = outcomeFor(providerNumber);
  if (outcome === 'partialReturn' && shape.units < 2) outcome = 'returned';
  const common: [StatusKey, number][] = [['uploaded', 0], ['onPointIn', 5], ['onWay', 18], ['onPointOut', 42]];
  if (shape.deliveryType === 1) {
    const tail: Record<Outcome, [StatusKey, number][]> = {
      delivered: [['delivering', 46], ['delivered', 52]],
      returned: [['delivering', 46], ['returnedFromDelivery', 53], ['returning', 60], ['returned', 130]],
      partialReturn: [['delivering', 46], ['partialReturn', 53]],
    };
    return [...common, ...tail[outcome]];
  }
  const tail: Record<Outcome, [StatusKey, number][]> = {
    delivered: [['readyForRecipient', 48], ['delivered', 70]],
    returned: [['readyForRecipient', 48], ['returning', 220], ['returned', 290]],
    partialReturn: [['readyForRecipient', 48], ['partialReturn', 60]],
  };
  return [...common, ...tail[outcome]];
}

/** The statuses a shipment registered at `registeredAt` has reached by `now`, oldest first. */
export function statusesAt(
  providerNumber: string,
  registeredAt: number,
  now: number,
  shape: ShipmentShape = { deliveryType: 2, units: 2 },
): { key: StatusKey; at: number }[] {
  return stepsFor(providerNumber, shape)
    .map(([key, hours]) => ({ key, at: registeredAt + hours * hour }))
    .filter((s) => s.at <= now);
}

/** The first status of the shipment's path still ahead of `now`, or null at its end. */
export function nextStatusAfter(
  providerNumber: string,
  registeredAt: number,
  now: number,
  shape: ShipmentShape = { deliveryType: 2, units: 2 },
): { key: StatusKey; at: number } | null {
  for (const [key, hours] of stepsFor(providerNumber, shape)) if (registeredAt + hours * hour > now) return { key, at: registeredAt + hours * hour };
  return null;
}

/** Has the shipment been handed over (onPointIn or later) by `now`? Then the service no longer changes it. */
export const handedOverBy = (registeredAt: number, now: number) => now >= registeredAt + 5 * hour;
