import { serviceKind } from '../carrier-kind';
import { CDEK_PRODUCTION_URL, CDEK_TEST_ACCOUNT, CDEK_TEST_URL, createCdekClient, type CdekCallInfo, type FetchLike } from './client';
import { cdekInfo, createCdekProvider } from './cdek-provider';
import { CDEK_KEY } from './mapping';
import { said } from '../../../../shared/messages';

/** Knobs of the CDEK adapters built for connections (the tests shorten the waits). */
export interface CdekTuning {
  fetch?: FetchLike;
  timeoutMs?: number;
  refreshBeforeMs?: number;
  pollDelaysMs?: number[];
  sleep?: (ms: number) => Promise<void>;
  officesPageSize?: number;
  onCall?: (call: CdekCallInfo) => void;
}

/** CDEK API v2 with the shop's own account (clientId + clientSecret), or its public test account in test mode. */
export const cdekKind = serviceKind({
  key: CDEK_KEY,
  name: 'СДЭК',
  noun: 'CDEK',
  englishName: 'CDEK',
  testMode: true,
  baseUrl: 'optional',
  fields: [
    { name: 'clientId', label: { ru: 'Идентификатор клиента (Account)', en: 'Client id (Account)' }, secret: true, type: 'text', required: 'outsideTestMode', hint: true },
    { name: 'clientSecret', label: { ru: 'Секретный ключ (Secure password)', en: 'Client secret (Secure password)' }, secret: true, type: 'text', required: 'outsideTestMode' },
  ],
  testAccount: CDEK_TEST_ACCOUNT,
  info: cdekInfo,
  create(connection, deps) {
    const tuning = (deps.tuning ?? {}) as CdekTuning;
    const client = createCdekClient({
      baseUrl: connection.baseUrl ?? (connection.testMode ? CDEK_TEST_URL : CDEK_PRODUCTION_URL),
      clientId: connection.secrets.clientId,
      clientSecret: connection.secrets.clientSecret,
      fetch: tuning.fetch,
      clock: deps.clock,
      timeoutMs: tuning.timeoutMs,
      refreshBeforeMs: tuning.refreshBeforeMs,
      log: deps.log.child({ service: CDEK_KEY }),
      onCall: tuning.onCall,
    });
    return createCdekProvider({
      client, reference: deps.reference, clock: deps.clock, testMode: connection.testMode,
      pollDelaysMs: tuning.pollDelaysMs, sleep: tuning.sleep, officesPageSize: tuning.officesPageSize,
    });
  },
  async test(carrier, connection) {
    const { expiresInSeconds } = await carrier.testConnection();
    return { ...said(connection.testMode ? 'conn.connectedCdekTest' : 'conn.connectedCdek'), tokenExpiresIn: expiresInSeconds };
  },
});
