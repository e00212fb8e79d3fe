import { serviceKind } from '../carrier-kind';
import type { CallInfo, FetchLike } from '../transport';
import { BOXBERRY_URL, createBoxberryClient } from './client';
import { createBoxberryProvider, boxberryInfo } from './boxberry-provider';
import { BOXBERRY_KEY } from './mapping';

/** Knobs of the adapters built for connections (the tests' fetch and short waits). */
export interface BoxberryTuning {
  fetch?: FetchLike;
  timeoutMs?: number;
  onCall?: (call: CallInfo) => void;
}

/** Boxberry with the shop's API token (account → Интеграция). Boxberry publishes no test host: no test mode. */
export const boxberryKind = serviceKind({
  key: BOXBERRY_KEY,
  name: 'Boxberry',
  noun: 'Boxberry',
  englishName: 'Boxberry',
  testMode: false,
  baseUrl: 'optional',
  fields: [{ name: 'token', label: { ru: 'API-токен (личный кабинет → Интеграция)', en: 'API token (account → Integration)' }, secret: true, type: 'text', required: 'always', hint: true }],
  info: boxberryInfo,
  create(connection, deps) {
    const tuning = (deps.tuning ?? {}) as BoxberryTuning;
    const client = createBoxberryClient({
      baseUrl: connection.baseUrl ?? BOXBERRY_URL,
      token: connection.secrets.token ?? '',
      fetch: tuning.fetch,
      clock: deps.clock,
      timeoutMs: tuning.timeoutMs,
      log: deps.log.child({ service: BOXBERRY_KEY }),
      onCall: tuning.onCall,
    });
    return createBoxberryProvider({ client, reference: deps.reference });
  },
  async test(carrier) {
    await carrier.testConnection();
    return { message: 'Connected to Boxberry', tokenExpiresIn: null };
  },
});
