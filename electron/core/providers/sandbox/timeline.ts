import type { StatusKey } from '../../../../shared/status-keys';
import { createHash } from 'node:crypto';

const hour = 3_600_000;

/** A status path a sandbox shipment follows, with hours after registration for each step. */
interface Path {
  steps: [StatusKey, number][];
}

const paths: Path[] = [
  { steps: [['uploaded', 0], ['onPointIn', 6], ['onWay', 20], ['onPointOut', 44], ['readyForRecipient', 50], ['delivered', 70]] },
  { steps: [['uploaded', 0], ['onPointIn', 4], ['onWay', 16], ['onPointOut', 40], ['delivering', 46], ['delivered', 52]] },
  { steps: [['uploaded', 0], ['onPointIn', 5], ['onWay', 18], ['onPointOut', 42], ['readyForRecipient', 48], ['returning', 220], ['returned', 290]] },
  { steps: [['uploaded', 0], ['onPointIn', 5], ['onWay', 18], ['onPointOut', 42], ['delivering', 47], ['partialReturn', 53]] },
];

/** Weights of the paths: most parcels are delivered; some come back. */
const pathWeights = [45, 35, 12, 8];

/** Which path a shipment takes: a pure function of its tracking number, so it is the same every run. */
export function pathFor(providerNumber: string): Path {
  const n = createHash('sha256').update(providerNumber).digest().readUInt32BE(0) % 100;
  let acc = 0;
  for (let i = 0; i < paths.length; i++) {
    acc += pathWeights[i];
    if (n < acc) return paths[i];
  }
  return paths[0];
}

/** The statuses a shipment registered at `registeredAt` has reached by `now`, oldest first. */
export function statusesAt(providerNumber: string, registeredAt: number, now: number): { key: StatusKey; at: number }[] {
  return pathFor(providerNumber)
    .steps.map(([key, hours]) => ({ key, at: registeredAt + hours * hour }))
    .filter((s) => s.at <= now);
}
