import { eachAtMost } from '../concurrency';
import type { ProviderStatus, TrackedShipment } from './provider';

/**
 * Asks a service for each shipment's history, a few at a time. One shipment that fails is left out (asked again on
 * the next refresh); only when every one fails is the first failure thrown, so an outage is seen as one.
 * `historyOf` answers null for a shipment the service does not know.
 */
export async function trackEach(
  shipments: TrackedShipment[],
  historyOf: (shipment: TrackedShipment) => Promise<ProviderStatus[] | null>,
  concurrency = 4,
): Promise<Map<string, ProviderStatus[]>> {
  const result = new Map<string, ProviderStatus[]>();
  let failures = 0;
  let firstFailure: unknown = null;
  await eachAtMost(shipments, concurrency, async (s) => {
    try {
      const history = await historyOf(s);
      if (history) result.set(s.providerNumber, history);
    } catch (error) {
      failures++;
      firstFailure ??= error;
    }
  });
  if (shipments.length > 0 && failures === shipments.length) throw firstFailure;
  return result;
}
