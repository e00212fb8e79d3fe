import { said } from '../../../../shared/messages';
import { serviceKind } from '../carrier-kind';
import type { CallInfo, FetchLike } from '../transport';
import { FIVEPOST_TEST_URL, FIVEPOST_URL, createFivePostClient } from './client';
import { createFivePostProvider, fivePostInfo } from './fivepost-provider';
import { FIVEPOST_KEY } from './mapping';

/** Knobs of the adapters built for connections (the tests' fetch and short waits, smaller point pages). */
export interface FivePostTuning {
  fetch?: FetchLike;
  timeoutMs?: number;
  pageSize?: number;
  onCall?: (call: CallInfo) => void;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/**
 * 5Post with the API key its manager gives under contract, and the shop's warehouse registered with 5Post. No public
 * test account: test mode points the shop's own key at 5Post's pre-production host.
 */
export const fivePostKind = serviceKind({
  key: FIVEPOST_KEY,
  name: '5Post',
  noun: '5Post',
  englishName: '5Post',
  testMode: true,
  baseUrl: 'optional',
  fields: [
    { name: 'apiKey', label: { ru: 'API-ключ (выдаёт менеджер 5Post)', en: 'API key (from your 5Post manager)' }, secret: true, type: 'text', required: 'always', hint: true },
    { name: 'warehouseId', label: { ru: 'Склад отправителя в 5Post (senderLocation)', en: 'Your warehouse at 5Post (senderLocation)' }, secret: false, type: 'text', required: 'always' },
  ],
  info: fivePostInfo,
  create(connection, deps) {
    const tuning = (deps.tuning ?? {}) as FivePostTuning;
    const client = createFivePostClient({
      baseUrl: connection.baseUrl ?? (connection.testMode ? FIVEPOST_TEST_URL : FIVEPOST_URL),
      apiKey: connection.secrets.apiKey ?? '',
      fetch: tuning.fetch,
      clock: deps.clock,
      timeoutMs: tuning.timeoutMs,
      log: deps.log.child({ service: FIVEPOST_KEY }),
      onCall: tuning.onCall,
    });
    return createFivePostProvider({ client, reference: deps.reference, clock: deps.clock, warehouseId: text(connection.settings.warehouseId), testMode: connection.testMode, pageSize: tuning.pageSize });
  },
  async test(carrier, connection) {
    const { expiresInSeconds } = await carrier.testConnection();
    return { ...said(connection.testMode ? 'conn.connectedFivePostTest' : 'conn.connectedFivePost'), tokenExpiresIn: expiresInSeconds };
  },
});
