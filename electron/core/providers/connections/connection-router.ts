import type { ProviderInfo } from '../../../../shared/contract/providers';
import { message, said } from '../../../../shared/messages';
import type { OrderCreate } from '../../../../shared/schemas/order';
import { ProviderRejectedError, ProviderUnavailableError, type Carrier, type ProviderStatus, type ShipmentRequest, type TrackedShipment } from '../provider';

/** A connection as messages name it: its id, or "(default)" when the order names none. */
const connectionName = (id: number | undefined) => id ?? message('conn.default');

/** One connection's adapter. */
export interface ConnectedAdapter {
  connectionId: number;
  provider: Carrier;
}

/**
 * One delivery service key in front of several accounts: each call goes to the connection the order names
 * (order.providerConnectId), or to the service's default connection (the oldest) when it names none.
 * It offers an operation only when one of its accounts does, so the service's declared operations stay true;
 * it is built again whenever the connections change.
 */
export function createConnectionRouter(key: string, info: () => ProviderInfo, connected: ConnectedAdapter[]): Carrier {
  const adapters = () => connected;
  const any = (what: 'update' | 'cancel' | 'remove' | 'labels' | 'handoverAct' | 'courierCalls' | 'batches' | 'rates' | 'intervals' | 'referenceData') =>
    connected.some((a) => a.provider[what]);
  const pickConnection = (wanted: number | undefined): Carrier | null => {
    const list = adapters();
    if (wanted === undefined) return list[0]?.provider ?? null;
    return list.find((a) => a.connectionId === wanted)?.provider ?? null;
  };
  const pick = (order: OrderCreate): Carrier | null => pickConnection(order.order.providerConnectId);
  const anyWith = (what: 'rates' | 'intervals'): Carrier | undefined => adapters().find((a) => a.provider[what])?.provider;
  const batchGone = (id: number | undefined, batch: string) => new ProviderRejectedError(said('provider.batchConnectionGone', { service: key, id: connectionName(id), batch }));
  const route = (request: ShipmentRequest): Carrier => {
    const provider = pick(request.order);
    if (!provider) {
      const id = request.order.order.providerConnectId;
      throw new ProviderRejectedError(
        id === undefined ? said('conn.noneSetUp', { service: key }) : said('conn.gone', { id, service: key }),
        [{ field: 'order.providerConnectId', ...said('conn.notOfKind', { service: key }) }],
      );
    }
    return provider;
  };

  const router: Carrier = {
    get info() {
      return info();
    },
    async check(order) {
      const provider = pick(order);
      if (!provider) return [{ field: 'order.providerConnectId', ...said('conn.idNotOfKind', { id: connectionName(order.order.providerConnectId), service: key }) }];
      return provider.check(order);
    },
    register: (request) => route(request).register(request),
    find: (request) => route(request).find(request),
    async update(providerNumber, request) {
      const provider = route(request);
      if (!provider.update) throw new ProviderRejectedError(said('provider.noUpdate', { service: key }));
      return provider.update(providerNumber, request);
    },
    async cancel(providerNumber, request) {
      const provider = route(request);
      if (!provider.cancel) throw new ProviderRejectedError(said('provider.noCancel', { service: key }));
      return provider.cancel(providerNumber, request);
    },
    async remove(providerNumber, request) {
      const provider = route(request);
      if (!provider.remove) throw new ProviderRejectedError(said('provider.noDelete', { service: key }));
      return provider.remove(providerNumber, request);
    },
    async labels(shipments: TrackedShipment[], format: 'pdf' | 'zpl') {
      const provider = shipments.length > 0 ? route(shipments[0].request) : undefined;
      if (!provider?.labels) throw new ProviderRejectedError(said('provider.noLabels', { service: key }));
      if (shipments.some((s) => pick(s.request.order) !== provider)) throw new ProviderRejectedError(said('provider.labelsOneAccount', { service: key }));
      return provider.labels(shipments, format);
    },
    /** Prices and intervals come from the first account that can give them (the default connection). */
    rates: (request) => anyWith('rates')?.rates!(request) ?? Promise.resolve([]),
    intervals: (request) => anyWith('intervals')?.intervals!(request) ?? Promise.resolve([]),
    courierCalls: {
      async create(request) {
        const provider = pickConnection(request.providerConnectId);
        if (!provider?.courierCalls) throw new ProviderRejectedError(said('provider.noCourierConnection', { service: key, id: connectionName(request.providerConnectId) }), [{ field: 'providerConnectId', ...said('conn.notOfKind', { service: key }) }]);
        return provider.courierCalls.create(request);
      },
      async cancel(call) {
        const provider = pickConnection(call.providerConnectId);
        if (!provider?.courierCalls) throw new ProviderUnavailableError(said('provider.courierConnectionGone', { service: key, id: connectionName(call.providerConnectId) }));
        return provider.courierCalls.cancel(call);
      },
    },
    batches: {
      async form(shipments, sendingDate) {
        const provider = shipments.length > 0 ? route(shipments[0].request) : undefined;
        if (!provider?.batches) throw new ProviderRejectedError(said('provider.noBatches', { service: key }));
        if (shipments.some((s) => pick(s.request.order) !== provider)) throw new ProviderRejectedError(said('provider.batchesOneAccount', { service: key }));
        return provider.batches.form(shipments, sendingDate);
      },
      async checkIn(batchName, providerConnectId) {
        const provider = pickConnection(providerConnectId);
        if (!provider?.batches) throw batchGone(providerConnectId, batchName);
        return provider.batches.checkIn(batchName);
      },
      async register(batchName, providerConnectId) {
        const provider = pickConnection(providerConnectId);
        if (!provider?.batches) throw batchGone(providerConnectId, batchName);
        return provider.batches.register(batchName);
      },
    },
    async handoverAct(shipments: TrackedShipment[]) {
      const provider = shipments.length > 0 ? route(shipments[0].request) : undefined;
      if (!provider?.handoverAct) throw new ProviderRejectedError(said('provider.noHandoverAct', { service: key }));
      if (shipments.some((s) => pick(s.request.order) !== provider)) throw new ProviderRejectedError(said('provider.actOneAccount', { service: key }));
      return provider.handoverAct(shipments);
    },
    async track(shipments: TrackedShipment[]) {
      const groups = new Map<Carrier, TrackedShipment[]>();
      for (const s of shipments) {
        const provider = pick(s.request.order);
        if (!provider) continue; // its connection is gone: nothing to ask
        groups.set(provider, [...(groups.get(provider) ?? []), s]);
      }
      const result = new Map<string, ProviderStatus[]>();
      for (const [provider, group] of groups) for (const [k, v] of await provider.track(group)) result.set(k, v);
      return result;
    },
  };
  for (const op of ['update', 'cancel', 'remove', 'labels', 'handoverAct', 'courierCalls', 'batches', 'rates', 'intervals'] as const) if (!any(op)) delete router[op];
  // Reference data is the default account's (lists/ stores it under the service's key).
  const withReference = connected.find((a) => a.provider.referenceData);
  if (withReference) router.referenceData = withReference.provider.referenceData;
  return router;
}
