import type { OrderCreateInput } from '../../../shared/schemas/order';
import { shopOrder } from '../order-book';

/**
 * A valid Boxberry order (the shared order book's): handed over at point `pointInId`, to point `toPoint` (tariff 9201)
 * or, without it, by courier to the door in Moscow (tariff 9202); cash on delivery. Override what a test is about.
 */
export function boxberryOrder(clientNumber: string, points: { pointInId: number; toPoint?: number }, patch?: (o: OrderCreateInput) => void): OrderCreateInput {
  const tariffId = points.toPoint !== undefined ? 9201 : 9202;
  return shopOrder(clientNumber, { providerKey: 'boxberry', tariffId, pointInId: points.pointInId, pointOutId: points.toPoint }, patch);
}
