import { createTestApp } from '../../../test/helpers/test-app';
import { courierCallCreateSchema } from '../../../shared/schemas/courier-call';
import type { Logger, LogFields } from '../logger';
import type { Carrier } from '../providers/provider';
import { ProviderUnavailableError } from '../providers/provider';

/** A log that keeps its lines. */
function recordingLog() {
  const lines: { level: string; message: string; fields?: LogFields }[] = [];
  const log: Logger = {
    info: (message, fields) => void lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => void lines.push({ level: 'warn', message, fields }),
    error: (message, _error, fields) => void lines.push({ level: 'error', message, fields }),
    child: () => log,
  };
  return { log, lines };
}

const asked = courierCallCreateSchema.parse({
  providerKey: 'sandbox-express', date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', weight: 2500, city: 'Москва', contactName: 'Иван Петров', phone: '+79161234567',
});

describe('the scheduler asks the services where open courier calls stand', () => {
  it('one service\'s calls two at a time, the services side by side, one log line each; a call the service cannot answer waits for the next run', async () => {
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    let together = 0;
    let mostTogether = 0;
    const down = new Set<string>();
    // The two sandbox services that take calls, taught to settle them later as CDEK does: each question takes a moment.
    const settlingLater = (carrier: Carrier): Carrier => {
      if (!carrier.courierCalls) return carrier;
      const key = carrier.info.key;
      return {
        ...carrier,
        courierCalls: {
          ...carrier.courierCalls,
          async refresh(call) {
            inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
            most.set(key, Math.max(most.get(key) ?? 0, inFlight.get(key)!));
            mostTogether = Math.max(mostTogether, ++together);
            await new Promise((resolve) => setTimeout(resolve, 5));
            inFlight.set(key, inFlight.get(key)! - 1);
            together--;
            if (down.has(call.additionalProviderNumber!)) throw new ProviderUnavailableError(`${key} answered HTTP 503`);
            return { state: 'accepted', providerNumber: `N-${call.additionalProviderNumber}` };
          },
        },
      };
    };
    const { log, lines } = recordingLog();
    const env = await createTestApp({ wrapProvider: settlingLater, log });
    try {
      const store = env.app.stores.courierCalls;
      const ids: number[] = [];
      for (const providerKey of ['sandbox-express', 'sandbox-lockers']) {
        for (let i = 0; i < 5; i++) {
          const id = await store.add(
            { companyId: env.shop.companyId, providerKey, providerConnectId: null, date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', request: asked, orderIds: [], createdAt: 0 },
            'no answer',
          );
          await store.settle(id, { state: 'accepted', providerNumber: null, additionalProviderNumber: `${providerKey}-${i}` });
          ids.push(id);
        }
      }
      down.add('sandbox-lockers-4');

      await env.app.services.scheduler.refreshNow(env.shop.companyId);
      expect(Object.fromEntries(most)).toEqual({ 'sandbox-express': 2, 'sandbox-lockers': 2 });
      expect(mostTogether).toBe(4);
      const calls = (await store.page(env.shop.companyId, { limit: 20, offset: 0 })).calls;
      expect(calls.filter((c) => c.providerNumber !== null)).toHaveLength(9);
      expect(calls.find((c) => c.additionalProviderNumber === 'sandbox-lockers-4')).toMatchObject({ state: 'accepted', providerNumber: null });
      const courierLines = lines.filter((l) => l.message.startsWith('courier calls'));
      expect(courierLines).toEqual(
        expect.arrayContaining([
          { level: 'info', message: 'courier calls refreshed', fields: { connection: 'service:sandbox-express', service: 'sandbox-express', checked: 5, changed: 5, failed: 0 } },
          {
            level: 'warn',
            message: 'courier calls: 1 of 5 could not be asked (sandbox-lockers answered HTTP 503)',
            fields: { connection: 'service:sandbox-lockers', service: 'sandbox-lockers', checked: 5, changed: 4, failed: 1 },
          },
        ]),
      );
      expect(courierLines).toHaveLength(2);

      // The next run asks only what is still open and not numbered (the date is ahead, so numbered ones are asked again, unchanged).
      down.clear();
      await env.app.services.scheduler.refreshNow(env.shop.companyId);
      expect((await store.page(env.shop.companyId, { limit: 20, offset: 0 })).calls.every((c) => c.providerNumber === `N-${c.additionalProviderNumber}`)).toBe(true);
    } finally {
      await env.close();
    }
  });
});
