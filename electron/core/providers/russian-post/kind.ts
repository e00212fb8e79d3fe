import { said } from '../../../../shared/messages';
import { serviceKind } from '../carrier-kind';
import type { CallInfo, FetchLike } from '../transport';
import { OTPRAVKA_URL, createRussianPostClient } from './client';
import { RUSSIAN_POST_KEY } from './mapping';
import { createRussianPostProvider, russianPostInfo } from './russian-post-provider';
import { createPostTracking } from './tracking';

/** Knobs of the adapters built for connections (the tests' fetch and short waits). */
export interface RussianPostTuning {
  fetch?: FetchLike;
  timeoutMs?: number;
  singleTrackingMax?: number;
  onCall?: (call: CallInfo) => void;
}

/** The tracking services' host; the connection may name another (a proxy, a local fake). */
export const TRACKING_URL = 'https://tracking.russianpost.ru';

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/**
 * Russian Post's Otpravka API with the shop's access token and user key (otpravka.pochta.ru → Настройки → API), the
 * post office it hands parcels over at, and the tracking service's own login. Russian Post publishes no test host:
 * test mode keeps orders in the backlog (nothing is sent to the post office) and forms no batches.
 */
export const russianPostKind = serviceKind({
  key: RUSSIAN_POST_KEY,
  name: 'Почта России',
  noun: 'Russian Post',
  englishName: 'Russian Post',
  testMode: true,
  baseUrl: 'optional',
  fields: [
    { name: 'accessToken', label: { ru: 'Токен авторизации приложения', en: 'Application access token' }, secret: true, type: 'text', required: 'always', hint: true },
    { name: 'userKey', label: { ru: 'Ключ авторизации пользователя (base64 логин:пароль)', en: 'User authorization key (base64 login:password)' }, secret: true, type: 'text', required: 'always' },
    { name: 'postofficeCode', label: { ru: 'Индекс отделения, где вы сдаёте посылки', en: 'Index of the post office you hand parcels over at' }, secret: false, type: 'text', required: 'always' },
    { name: 'trackingLogin', label: { ru: 'Логин сервиса отслеживания', en: 'Tracking service login' }, secret: false, type: 'text', required: 'never' },
    { name: 'trackingPassword', label: { ru: 'Пароль сервиса отслеживания', en: 'Tracking service password' }, secret: true, type: 'text', required: 'never' },
    { name: 'trackingUrl', label: { ru: 'Адрес сервиса отслеживания (если не стандартный)', en: 'Tracking service address (if not the usual one)' }, secret: false, type: 'text', required: 'never' },
  ],
  info: russianPostInfo,
  create(connection, deps) {
    const tuning = (deps.tuning ?? {}) as RussianPostTuning;
    const log = deps.log.child({ service: RUSSIAN_POST_KEY });
    const transport = { fetch: tuning.fetch, clock: deps.clock, timeoutMs: tuning.timeoutMs, log, onCall: tuning.onCall };
    const client = createRussianPostClient({ ...transport, baseUrl: connection.baseUrl ?? OTPRAVKA_URL, accessToken: connection.secrets.accessToken ?? '', userKey: connection.secrets.userKey ?? '' });
    const trackingUrl = (text(connection.settings.trackingUrl) || TRACKING_URL).replace(/\/+$/, '');
    const tracking = createPostTracking({ ...transport, singleUrl: `${trackingUrl}/rtm34`, batchUrl: `${trackingUrl}/fc`, login: text(connection.settings.trackingLogin), password: connection.secrets.trackingPassword ?? '' });
    return createRussianPostProvider({
      client,
      tracking,
      reference: deps.reference,
      postofficeCode: text(connection.settings.postofficeCode),
      testMode: connection.testMode,
      singleTrackingMax: tuning.singleTrackingMax,
    });
  },
  async test(carrier, connection) {
    await carrier.testConnection();
    const office = text(connection.settings.postofficeCode);
    return { ...said(connection.testMode ? 'conn.connectedRussianPostTest' : 'conn.connectedRussianPost', { office }), tokenExpiresIn: null };
  },
});
