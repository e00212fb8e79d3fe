import type { ProviderRegistry } from '../providers/registry';
import type { ReferenceStore } from '../store/reference/reference-store';
import type { LabelNames, PrintableOrder } from './label';

/**
 * The service, tariff and pickup point names the labels of these orders show, in two reads whatever
 * the number of orders. A tariff or point the lists no longer have prints as its id.
 */
export async function labelNames(reference: ReferenceStore, providers: ProviderRegistry, orders: PrintableOrder[]): Promise<Map<number, LabelNames>> {
  const tariffIds = [...new Set(orders.map((o) => o.order.order.tariffId))];
  const pointIds = [...new Set(orders.flatMap((o) => (o.order.order.deliveryType === 2 && o.order.order.pointOutId ? [o.order.order.pointOutId] : [])))];
  const [tariffs, points] = await Promise.all([
    tariffIds.length ? reference.findTariffs(tariffIds) : [],
    pointIds.length ? reference.findPoints(pointIds) : [],
  ]);
  const tariffName = new Map(tariffs.map((t) => [`${t.providerKey}:${t.id}`, t.name]));
  const point = new Map(points.map((p) => [`${p.providerKey}:${p.id}`, { code: p.code, address: p.address }]));
  return new Map(
    orders.map((o) => {
      const { tariffId, pointOutId, deliveryType } = o.order.order;
      return [
        o.orderId,
        {
          service: providers.get(o.providerKey)?.info.name ?? o.providerKey,
          tariff: tariffName.get(`${o.providerKey}:${tariffId}`) ?? `Тариф ${tariffId}`,
          point: deliveryType === 2 && pointOutId ? (point.get(`${o.providerKey}:${pointOutId}`) ?? { code: String(pointOutId), address: '' }) : null,
        },
      ];
    }),
  );
}
