import type { OrderCreateInput } from '../../../shared/schemas/order';
import { declareValue, shopOrder } from '../order-book';

/**
 * A valid Russian Post order (the shared order book's), handed over at the connection's post office: to the point
 * `toPoint` ("called for" at a post office with tariff 9301, or to an ECOM pickup point with `ecom`), or, without it,
 * by courier to the door in Moscow (tariff 9302). Russian Post collects cash only within the declared value, so the
 * value is raised above the sum to collect, and it addresses the recipient surname first. Override what a test is about.
 */
export function russianPostOrder(clientNumber: string, to: { toPoint?: number; ecom?: boolean } = {}, patch: (o: OrderCreateInput) => void = () => {}): OrderCreateInput {
  const tariffId = to.toPoint !== undefined ? (to.ecom ? 9303 : 9301) : 9302;
  return shopOrder(clientNumber, { providerKey: 'russian-post', tariffId, pointOutId: to.toPoint }, (o) => {
    declareValue(o, 3500);
    o.recipient.index = '101001';
    o.recipient.contactName = 'Сидоров Пётр Ильич';
    patch(o);
  });
}
