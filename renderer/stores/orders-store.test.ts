import type { CommandInput, CommandName, CommandOutput } from '../../shared/contract';
import type { Result } from '../../shared/result';
import { createTestApp } from '../../test/helpers/test-app';
import { setTransport } from '../transport/current';
import type { Transport } from '../transport/types';
import { emptyFilter, ordersPageSize, rowAt, rowCount, useOrdersStore } from './orders-store';

/** The window's store against the real core (a transport that calls the app's command table directly). */
describe('the orders list store', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  const calls: Array<{ name: string; input: unknown }> = [];

  const settle = async () => {
    // Answers of the core come on later ticks; wait until every request of the store has come back.
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 5));
  };

  beforeAll(async () => {
    env = await createTestApp();
    const transport: Transport = {
      kind: 'http',
      invoke: async <N extends CommandName>(name: N, input: CommandInput<N>) => {
        calls.push({ name, input });
        return (await env.app.dispatch(name, env.shop, input)) as Result<CommandOutput<N>>;
      },
      onEvent: () => () => {},
      onConnectionChange: () => () => {},
      dispose: () => {},
    };
    setTransport(transport);
    const add = env.app.sqlite.prepare(
      `INSERT INTO orders (company_id, client_number, provider_key, state, status_key, status_changed_at, recipient_name, recipient_phone,
         cod_kopecks, assessed_kopecks, payload, created_at, updated_at) VALUES (?, ?, 'sandbox-express', 'active', 'uploaded', 0, ?, '+79160000000', ?, 0, '{}', ?, 0)`,
    );
    env.app.sqlite.transaction(() => {
      for (let i = 1; i <= 250; i++) add.run(env.shop.companyId, `ST-${String(i).padStart(3, '0')}`, i % 10 === 0 ? 'Анна Смирнова' : 'Борис Иванов', i % 2 ? 100_00 : 0, i * 1000);
    })();
  });
  afterAll(async () => {
    setTransport(undefined);
    await env.close();
  });
  beforeEach(() => {
    useOrdersStore.setState({ searchText: '', search: '', filter: emptyFilter, sort: { key: 'created', direction: 'desc' }, windows: {}, total: undefined, selected: new Set(), status: 'idle' });
    calls.length = 0;
  });

  it('loads the first window and the count, then further windows as rows come into view', async () => {
    await useOrdersStore.getState().load();
    let s = useOrdersStore.getState();
    expect(rowAt(s.windows, 0)?.clientNumber).toBe('ST-250');
    expect(s.total).toBe(250);
    expect(rowCount(s)).toBe(250);
    expect(rowAt(s.windows, 150)).toBeUndefined();
    s.ensureRows(140, 210);
    await settle();
    s = useOrdersStore.getState();
    expect(rowAt(s.windows, 150)?.clientNumber).toBe('ST-100');
    expect(rowAt(s.windows, 249)?.clientNumber).toBe('ST-001');
    // Scrolling over rows already there asks nothing more.
    const asked = calls.length;
    s.ensureRows(0, 249);
    expect(calls.length).toBe(asked);
    // Windows after the first ask for no count: the total is counted once per query.
    expect(calls.filter((c) => (c.input as { withTotal?: boolean }).withTotal === true)).toHaveLength(1);
  });

  it('shows only the answer to the latest search when the user types on', async () => {
    await useOrdersStore.getState().load();
    useOrdersStore.getState().setSearch('ST-0');
    useOrdersStore.getState().setSearch('Смирнова');
    await settle();
    const s = useOrdersStore.getState();
    expect(s.total).toBe(25);
    const shown = Object.values(s.windows).flat();
    expect(shown).toHaveLength(25);
    expect(shown.every((o) => o.recipientName === 'Анна Смирнова')).toBe(true);
  });

  it('applies filters and sorting to the query it sends', async () => {
    useOrdersStore.getState().setFilter({ cod: 'yes', dateFrom: '1970-01-01' });
    useOrdersStore.getState().toggleSort('clientNumber');
    await settle();
    const s = useOrdersStore.getState();
    expect(s.total).toBe(125);
    expect(rowAt(s.windows, 0)?.clientNumber).toBe('ST-001');
    expect(rowAt(s.windows, 1)?.clientNumber).toBe('ST-003');
    expect(calls.at(-1)?.input).toMatchObject({ cod: true, dateFrom: '1970-01-01', sort: 'clientNumber', direction: 'asc' });
    useOrdersStore.getState().clearFilters();
    useOrdersStore.getState().toggleSort('created');
    await settle();
  });

  it('checks a range with Shift and all loaded rows with the header checkbox', async () => {
    await useOrdersStore.getState().load();
    const { toggleSelected, toggleAllLoaded } = useOrdersStore.getState();
    toggleSelected(2, false);
    toggleSelected(6, true);
    expect([...useOrdersStore.getState().selected].length).toBe(5);
    toggleAllLoaded();
    expect(useOrdersStore.getState().selected.size).toBe(ordersPageSize);
    toggleAllLoaded();
    expect(useOrdersStore.getState().selected.size).toBe(0);
  });
});
