import { localDate } from '../calculator/calendar';
import type { Clock } from '../clock';
import { eachAtMost } from '../concurrency';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import type { LaneOf } from '../outbox/lanes';
import { DEFAULT_PARALLEL_CALLS } from '../providers/carrier-kind';
import type { CourierCallProgress, CourierCallRef } from '../providers/courier-call';
import { ProviderRejectedError, ProviderUnavailableError } from '../providers/provider';
import type { ProviderRegistry } from '../providers/registry';
import type { CourierCall, CourierCallLater, CourierCallsStore } from '../store/courier-calls/courier-calls-store';

/** A kept call as its carrier is asked about it. */
export const refOf = (call: CourierCall): CourierCallRef => ({
  companyId: call.companyId,
  providerConnectId: call.providerConnectId ?? undefined,
  providerNumber: call.providerNumber,
  additionalProviderNumber: call.additionalProviderNumber,
});

/**
 * At most this many questions to one connection at once, below its "parallel calls": a background refresh
 * must leave the service's rate limit to the orders the outbox sends.
 */
const MOST_AT_ONCE = 2;

export interface CourierRefreshResult {
  checked: number;
  changed: number;
  failed: number;
}

export interface CourierRefreshDeps {
  store: CourierCallsStore;
  clock: Clock;
  providers: ProviderRegistry;
  events: EventBus;
  log: Logger;
  /** The connection a call's service goes through and its "parallel calls" (the outbox's lanes). */
  laneOf?: LaneOf;
}

/**
 * Asks the services that settle courier calls later (CDEK numbers an intake after its check, may find it
 * invalid, or remove it) where the open calls stand, and keeps their word. Run by the status scheduler: one
 * connection's calls a few at a time, the connections side by side; one line in the log per connection. A
 * service that cannot be asked now leaves its calls as they were, for the next run.
 */
export function createCourierRefresh(deps: CourierRefreshDeps) {
  const { store, clock, providers, events, log } = deps;

  function laterWord(call: CourierCall, progress: CourierCallProgress): CourierCallLater | null {
    if (progress.state === 'accepted') return progress.providerNumber && progress.providerNumber !== call.providerNumber ? { state: 'accepted', providerNumber: progress.providerNumber } : null;
    if (progress.state === 'canceled') return { state: 'canceled', at: clock.now() };
    return { state: 'refused', error: progress.reason };
  }

  return {
    async refresh(scope: { companyId?: number } = {}): Promise<CourierRefreshResult> {
      const result: CourierRefreshResult = { checked: 0, changed: 0, failed: 0 };
      const open = (await store.open(localDate(clock.now()), scope.companyId)).filter((call) => providers.get(call.providerKey)?.courierCalls?.refresh);
      const byConnection = new Map<string, { calls: CourierCall[]; atOnce: number }>();
      for (const call of open) {
        const limit = deps.laneOf?.(call.providerKey, call.providerConnectId);
        const lane = limit?.lane ?? `service:${call.providerKey}`;
        const group = byConnection.get(lane) ?? { calls: [], atOnce: Math.min(limit?.parallelCalls ?? DEFAULT_PARALLEL_CALLS, MOST_AT_ONCE) };
        group.calls.push(call);
        byConnection.set(lane, group);
      }
      const changedCompanies = new Set<number>();
      await Promise.all(
        [...byConnection].map(async ([lane, { calls, atOnce }]) => {
          const tally = { checked: 0, changed: 0, failed: 0 };
          let firstFailure: string | null = null;
          await eachAtMost(calls, atOnce, async (call) => {
            tally.checked++;
            try {
              const progress = await providers.get(call.providerKey)!.courierCalls!.refresh!(refOf(call));
              const later = laterWord(call, progress);
              // Applied only while the call is still accepted: a cancel from the shop meanwhile stands.
              if (later && (await store.update(call.id, later))) {
                tally.changed++;
                changedCompanies.add(call.companyId);
              }
            } catch (error) {
              // Whatever went wrong with one call, the others and the other connections are still asked.
              if (!(error instanceof ProviderRejectedError || error instanceof ProviderUnavailableError)) log.error('refreshing a courier call failed', error, { callId: call.id });
              tally.failed++;
              firstFailure ??= error instanceof Error ? error.message : String(error);
            }
          });
          const fields = { connection: lane, service: calls[0].providerKey, ...tally };
          if (firstFailure) log.warn(`courier calls: ${tally.failed} of ${tally.checked} could not be asked (${firstFailure})`, fields);
          else log.info('courier calls refreshed', fields);
          result.checked += tally.checked;
          result.changed += tally.changed;
          result.failed += tally.failed;
        }),
      );
      for (const companyId of changedCompanies) events.publish({ type: 'courier.changed', companyId });
      return result;
    },
  };
}

export type CourierRefresh = ReturnType<typeof createCourierRefresh>;
