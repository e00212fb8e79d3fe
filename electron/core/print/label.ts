import type { OrderCreate } from '../../../shared/schemas/order';

/** What one printed label carries (print-forms.md): one label per place of an order. */
export interface LabelData {
  /** The delivery service's name as the shop knows it. */
  service: string;
  tariff: string | null;
  /** The service's number, printed as Code 128 and as a 2D code. */
  providerNumber: string;
  clientNumber: string;
  recipient: { name: string; phone: string; address: string };
  /** The pickup point the parcel goes to (delivery to a point), instead of the recipient's address. */
  point: { code: string; address: string } | null;
  place: number;
  places: number;
  weightGrams: number;
  /** Cash on delivery of the whole order; 0 when the recipient pays nothing. */
  codKopecks: number;
  sender: string;
}

/** A registered order as the printing code reads it. */
export interface PrintableOrder {
  orderId: number;
  clientNumber: string;
  providerKey: string;
  providerNumber: string;
  /** The service's second number (CDEK prints by its uuid). */
  additionalProviderNumber: string | null;
  codKopecks: number;
  assessedKopecks: number;
  order: OrderCreate;
}

/** Names the label shows beside the order's own data, looked up by the caller. */
export interface LabelNames {
  service: string;
  tariff: string | null;
  point: { code: string; address: string } | null;
}

type Address = OrderCreate['recipient'];

/** An address on one line, the way a courier reads it: city first, then street, house, block, office. */
export function addressLine(a: Address): string {
  if (a.addressString) return a.addressString;
  const parts = [a.index, a.region, a.city, a.street, a.house && `д. ${a.house}`, a.block && `корп. ${a.block}`, a.office && `кв./оф. ${a.office}`];
  return parts.filter(Boolean).join(', ');
}

/** The sender as one line: the shop, its contact and phone, its city. */
export function senderLine(s: Address): string {
  return [s.companyName ?? s.brandName, s.contactName, s.phone, s.city ?? s.addressString].filter(Boolean).join(', ');
}

/** The labels of one order, one per place, in place order. */
export function orderLabels(order: PrintableOrder, names: LabelNames): LabelData[] {
  const { recipient, sender, places } = order.order;
  return places.map((place, i) => ({
    service: names.service,
    tariff: names.tariff,
    providerNumber: order.providerNumber,
    clientNumber: order.clientNumber,
    recipient: { name: recipient.contactName, phone: recipient.phone, address: addressLine(recipient) },
    point: names.point,
    place: i + 1,
    places: places.length,
    weightGrams: place.weight,
    codKopecks: order.codKopecks,
    sender: senderLine(sender),
  }));
}
