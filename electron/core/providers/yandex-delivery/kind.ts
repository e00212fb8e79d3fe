import { serviceKind } from '../carrier-kind';
import type { CallInfo, FetchLike } from '../transport';
import { YANDEX_PRODUCTION_URL, YANDEX_TEST_URL, createYandexClient } from './client';
import { YANDEX_KEY } from './mapping';
import { createYandexProvider, yandexInfo } from './yandex-provider';
import { said } from '../../../../shared/messages';

/** Knobs of the adapters built for connections (the tests' fetch and short waits). */
export interface YandexTuning {
  fetch?: FetchLike;
  timeoutMs?: number;
  pointBandDegrees?: number;
  onCall?: (call: CallInfo) => void;
}

/**
 * Yandex Delivery's "other day" platform with the shop's OAuth token (from the account's Integration page). There is
 * no public test account: test mode points the shop's own token at the platform's test host.
 */
export const yandexDeliveryKind = serviceKind({
  key: YANDEX_KEY,
  name: 'Яндекс Доставка',
  noun: 'Yandex Delivery',
  englishName: 'Yandex Delivery',
  testMode: true,
  baseUrl: 'optional',
  fields: [
    { name: 'token', label: { ru: 'OAuth-токен (личный кабинет → Интеграция)', en: 'OAuth token (account → Integration)' }, secret: true, type: 'text', required: 'always', hint: true },
    { name: 'warehouseStationId', label: { ru: 'Склад для забора (platform_station_id), если есть', en: 'Warehouse station for collection (platform_station_id), if any' }, secret: false, type: 'text', required: 'never' },
  ],
  info: yandexInfo,
  create(connection, deps) {
    const tuning = (deps.tuning ?? {}) as YandexTuning;
    const client = createYandexClient({
      baseUrl: connection.baseUrl ?? (connection.testMode ? YANDEX_TEST_URL : YANDEX_PRODUCTION_URL),
      token: connection.secrets.token ?? '',
      fetch: tuning.fetch,
      clock: deps.clock,
      timeoutMs: tuning.timeoutMs,
      log: deps.log.child({ service: YANDEX_KEY }),
      onCall: tuning.onCall,
    });
    const warehouse = connection.settings.warehouseStationId;
    return createYandexProvider({
      client,
      reference: deps.reference,
      clock: deps.clock,
      testMode: connection.testMode,
      warehouseStationId: typeof warehouse === 'string' && warehouse ? warehouse : null,
      pointBandDegrees: tuning.pointBandDegrees,
    });
  },
  async test(carrier, connection) {
    await carrier.testConnection();
    return { ...said(connection.testMode ? 'conn.connectedYandexTest' : 'conn.connectedYandex'), tokenExpiresIn: null };
  },
});
