import { boxberryKind } from './boxberry/kind';
import type { CarrierKind } from './carrier-kind';
import { cdekKind } from './cdek/kind';
import { fivePostKind } from './fivepost/kind';
import { russianPostKind } from './russian-post/kind';
import { upstreamKind } from './upstream/kind';
import { yandexDeliveryKind } from './yandex-delivery/kind';

/**
 * Every kind of delivery service the shop can connect with its own account: one line per folder.
 * Connections, the calculator, intervals, lists, courier calls and printing know the services only through
 * this table (and the Carrier each kind builds). The built-in sandbox services need no connection.
 */
export const carrierKinds: readonly CarrierKind[] = [cdekKind, upstreamKind, yandexDeliveryKind, boxberryKind, russianPostKind, fivePostKind];
