import type { AggregatorKind } from '../carrier-kind';
import { UPSTREAM_KIND } from './mapping';
import { createUpstreamConnections } from './upstream-connections';
import type { UpstreamTuning } from './upstream-provider';

/**
 * An upstream aggregator (anything speaking the delivery interface, another ShipDesk too): an address and
 * a token; every delivery service it lists appears here as `upstream:<connection id>:<its key>`.
 */
export const upstreamKind: AggregatorKind = {
  key: UPSTREAM_KIND,
  name: 'Агрегатор',
  noun: 'an upstream aggregator',
  englishName: 'Upstream aggregator',
  testMode: false,
  baseUrl: 'required',
  fields: [{ name: 'token', label: { ru: 'Токен API', en: 'API token' }, secret: true, type: 'text', required: 'always', hint: true }],
  aggregator(deps) {
    const connections = createUpstreamConnections({
      lists: deps.lists, clock: deps.clock, log: deps.log, exclusive: deps.exclusive, tuning: deps.tuning as UpstreamTuning | undefined,
    });
    return {
      load: (rows) => connections.load(rows.map((r) => ({ id: r.id, name: r.name, baseUrl: r.baseUrl, token: r.secrets.token ?? null, problem: r.problem }))),
      carriers: () => connections.providers(),
      carrier: (key) => connections.provider(key),
      test: (id) => connections.test(id),
      saved: (id) => connections.afterSave(id),
      forget: (id) => connections.forget(id),
      start: (ms) => connections.start(ms),
      stop: () => connections.stop(),
      sync: (id) => connections.sync(id),
      syncLists: (id) => connections.syncLists(id),
    };
  },
};
