import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../database';
import { testEngines, type TestStores } from '../test-engines';
import { searchCountCap } from './order-search';
import type { OrderListQuery, OrdersStore } from './orders-store';
import { postgresOrderSearch } from './postgres';

const day = 86_400_000;
const at = (date: string) => new Date(`${date}T12:00:00`).getTime();

interface Seed {
  clientNumber: string;
  name?: string;
  phone?: string;
  providerNumber?: string | null;
  status?: string;
  cod?: number;
  created?: string;
  provider?: string;
  state?: 'active' | 'canceled' | 'deleted';
  company?: number;
  city?: string;
  email?: string;
  street?: string;
}

describe.each(testEngines)('the orders list query ($name)', (engine) => {
  let opened: TestStores;
  let db: Db;
  let store: OrdersStore;
  const add = async (o: Seed) => {
    const created = at(o.created ?? '2026-03-10');
    await db
      .insertInto('orders')
      .values({
        company_id: o.company ?? 1,
        client_number: o.clientNumber,
        provider_key: o.provider ?? 'sandbox-express',
        provider_connect_id: null,
        state: o.state ?? 'active',
        status_key: o.status ?? 'uploaded',
        status_description: null,
        status_changed_at: created,
        provider_number: o.providerNumber === undefined ? `SBE${o.clientNumber}` : o.providerNumber,
        additional_provider_number: null,
        return_provider_number: null,
        barcode: null,
        tracking_url: null,
        recipient_name: o.name ?? 'Анна Смирнова',
        recipient_phone: o.phone ?? '+79219876543',
        recipient_city: o.city ?? 'Москва',
        cod_kopecks: (o.cod ?? 0) * 100,
        assessed_kopecks: 100_000,
        payload: JSON.stringify({ recipient: { email: o.email, street: o.street } }),
        created_at: created,
        updated_at: created,
        canceled_at: null,
        deleted_at: null,
      })
      .execute();
  };
  const list = (company: number, query: OrderListQuery) => store.listOrders(company, query);
  const numbers = async (query: OrderListQuery, company = 1) => (await list(company, query)).orders.map((r) => r.clientNumber);
  const page = { limit: 100, offset: 0 };

  beforeEach(async () => {
    opened = await engine.open();
    ({ db } = opened);
    store = opened.stores.orders;
    for (const id of [1, 2]) {
      await db.insertInto('companies').values({ id, name: `shop ${id}`, api_token: `token-${id}`, is_desktop: id === 1 ? 1 : 0, created_at: 0 }).execute();
    }
    await add({ clientNumber: 'A-100', name: 'Анна Смирнова', phone: '+79161112233', status: 'delivered', cod: 1500, created: '2026-03-01' });
    await add({ clientNumber: 'B-200', name: 'Борис Иванов', phone: '+79265554433', status: 'uploaded', cod: 0, created: '2026-03-05', provider: 'sandbox-economy' });
    await add({ clientNumber: 'C-300', name: 'Пётр Смирнов', phone: '+79031234567', status: 'problem', cod: 300, created: '2026-03-09', providerNumber: null });
    await add({ clientNumber: 'D-400', name: 'Дарья Ёлкина', phone: '+79160000000', status: 'deliveryCanceled', cod: 0, created: '2026-03-12', state: 'canceled' });
    await add({ clientNumber: 'E-500', name: 'Удалённый Заказ', status: 'uploaded', created: '2026-03-13', state: 'deleted' });
    await add({ clientNumber: 'X-900', name: 'Анна Смирнова', status: 'uploaded', created: '2026-03-14', company: 2 });
  });
  afterEach(() => opened.close());

  it('shows the company\'s own live orders, newest first, canceled ones included, with their count', async () => {
    const result = await list(1, page);
    expect(result.orders.map((r) => r.clientNumber)).toEqual(['D-400', 'C-300', 'B-200', 'A-100']);
    expect(result.total).toBe(4);
    expect(await numbers(page, 2)).toEqual(['X-900']);
  });

  it('finds an order by a part of its number, the service\'s number, the recipient\'s name or phone', async () => {
    expect(await numbers({ ...page, search: '-30' })).toEqual(['C-300']);
    expect(await numbers({ ...page, search: 'SBEB-2' })).toEqual(['B-200']);
    expect(await numbers({ ...page, search: 'смирнов' })).toEqual(['C-300', 'A-100']);
    expect(await numbers({ ...page, search: '555443' })).toEqual(['B-200']);
    // Two letters are too short for the index and still find their orders.
    expect(await numbers({ ...page, search: 'Бо' })).toEqual(['B-200']);
    expect(await numbers({ ...page, search: 'ЁЛКИН' })).toEqual(['D-400']);
    // Another company's orders and deleted ones are never found.
    expect(await numbers({ ...page, search: 'X-900' })).toEqual([]);
    expect(await numbers({ ...page, search: 'Удалённый' })).toEqual([]);
  });

  it('finds a phone however it is written: +7 (…) with dashes, 8…, or a part with a space', async () => {
    await add({ clientNumber: 'F-600', name: 'Ольга Семёнова', phone: '89161234567', city: 'Уфа', email: 'olga.s@mail.ru', street: 'ул. Ленина' });
    await add({ clientNumber: 'G-700', name: 'Игорь Ким', phone: '+7 (917) 444-33-22', city: 'Москва' });
    expect(await numbers({ ...page, search: '+7 (916) 123-45-67' })).toEqual(['F-600']);
    expect(await numbers({ ...page, search: '8 916 123' })).toEqual(['F-600']);
    expect(await numbers({ ...page, search: '917 444' })).toEqual(['G-700']);
    expect(await numbers({ ...page, search: '89174443322' })).toEqual(['G-700']);
    expect(await numbers({ ...page, search: '+7 (916) 111-22' })).toEqual(['A-100']);
  });

  it('finds the recipient by city, e-mail and street, and ё and е alike', async () => {
    await add({ clientNumber: 'F-600', name: 'Ольга Семёнова', phone: '89161234567', city: 'Уфа', email: 'olga.s@mail.ru', street: 'ул. Ленина' });
    expect(await numbers({ ...page, search: 'Уфа' })).toEqual(['F-600']);
    expect(await numbers({ ...page, search: 'москва' })).toEqual(['D-400', 'C-300', 'B-200', 'A-100']);
    expect(await numbers({ ...page, search: 'семенова' })).toEqual(['F-600']);
    expect(await numbers({ ...page, search: 'СЕМЁНОВА' })).toEqual(['F-600']);
    expect(await numbers({ ...page, search: 'olga.s@' })).toEqual(['F-600']);
    expect(await numbers({ ...page, search: 'Ленина' })).toEqual(['F-600']);
    // A match never spans two fields: the name's end and the city's start are not one word.
    expect(await numbers({ ...page, search: 'ова уфа' })).toEqual([]);
  });

  it('treats search text as text: quotes, percent signs and FTS syntax find nothing odd and break nothing', async () => {
    for (const search of ['"', '%', '_', 'A-100" OR "B', 'NEAR(a b)', '*', "'; DROP TABLE orders; --"]) {
      expect(await numbers({ ...page, search })).toEqual([]);
    }
    expect(await numbers(page)).toHaveLength(4);
  });

  it('keeps the search index in step with changed and removed orders', async () => {
    await db.updateTable('orders').set({ recipient_name: 'Вера Новикова', provider_number: 'SBE777' }).where('client_number', '=', 'B-200').execute();
    expect(await numbers({ ...page, search: 'Новиков' })).toEqual(['B-200']);
    expect(await numbers({ ...page, search: 'SBE777' })).toEqual(['B-200']);
    expect(await numbers({ ...page, search: 'Иванов' })).toEqual([]);
    await db.deleteFrom('orders').where('client_number', '=', 'B-200').execute();
    expect(await numbers({ ...page, search: 'Новиков' })).toEqual([]);
  });

  it('filters by statuses, delivery service, created dates (both days included) and cash on delivery', async () => {
    expect(await numbers({ ...page, statusKeys: ['delivered', 'problem'] })).toEqual(['C-300', 'A-100']);
    expect(await numbers({ ...page, providerKey: 'sandbox-economy' })).toEqual(['B-200']);
    expect(await numbers({ ...page, dateFrom: '2026-03-05', dateTo: '2026-03-09' })).toEqual(['C-300', 'B-200']);
    expect(await numbers({ ...page, dateFrom: '2026-03-10' })).toEqual(['D-400']);
    expect(await numbers({ ...page, dateTo: '2026-03-01' })).toEqual(['A-100']);
    expect(await numbers({ ...page, cod: true })).toEqual(['C-300', 'A-100']);
    expect(await numbers({ ...page, cod: false })).toEqual(['D-400', 'B-200']);
    const both = await list(1, { ...page, cod: true, search: 'Смирнов', statusKeys: ['problem'] });
    expect(both.orders.map((r) => r.clientNumber)).toEqual(['C-300']);
    expect(both.total).toBe(1);
  });

  it('sorts by created, number, status and COD either way', async () => {
    expect(await numbers({ ...page, sort: 'created', direction: 'asc' })).toEqual(['A-100', 'B-200', 'C-300', 'D-400']);
    expect(await numbers({ ...page, sort: 'clientNumber', direction: 'desc' })).toEqual(['D-400', 'C-300', 'B-200', 'A-100']);
    expect(await numbers({ ...page, sort: 'status', direction: 'asc' })).toEqual(['A-100', 'D-400', 'C-300', 'B-200']);
    // Equal amounts keep a stable order (newest first), so windows fetched while scrolling never overlap.
    expect(await numbers({ ...page, sort: 'cod', direction: 'desc' })).toEqual(['A-100', 'C-300', 'D-400', 'B-200']);
  });

  it('pages through windows without gaps or repeats, counting only when asked', async () => {
    const first = await list(1, { limit: 3, offset: 0, sort: 'clientNumber', direction: 'asc' });
    const second = await list(1, { limit: 3, offset: 3, sort: 'clientNumber', direction: 'asc', withTotal: false });
    expect([...first.orders, ...second.orders].map((r) => r.clientNumber)).toEqual(['A-100', 'B-200', 'C-300', 'D-400']);
    expect(first.total).toBe(4);
    expect(second.total).toBe(-1);
  });

  it('stops counting a very broad search at the cap and says so', async () => {
    const many = Array.from({ length: searchCountCap + 1 }, (_, i) => ({
      company_id: 1, client_number: `M-${i}`, provider_key: 'sandbox-express', state: 'active' as const, status_key: 'uploaded', status_changed_at: 0,
      recipient_name: 'Много Заказов', recipient_phone: '+79990000000', cod_kopecks: 0, assessed_kopecks: 0, payload: '{}', created_at: at('2026-01-01') - i * day, updated_at: 0,
    }));
    for (let i = 0; i < many.length; i += 200) await db.insertInto('orders').values(many.slice(i, i + 200)).execute();
    const broad = await list(1, { ...page, search: 'Много' });
    expect(broad).toMatchObject({ total: searchCountCap, capped: true });
    expect(broad.orders).toHaveLength(100);
    const all = await list(1, page);
    expect(all).toMatchObject({ total: searchCountCap + 5, capped: false });
    // Another company's matches never make this company's count "over the cap".
    expect(await list(2, { ...page, search: 'Много' })).toMatchObject({ total: 0, capped: false, orders: [] });
  });
});

const postgres = testEngines.find((e) => e.name === 'postgres');

describe.runIf(postgres)('the orders search on PostgreSQL', () => {
  it('is served by the trigram index: the store searches the very expression the index holds', async () => {
    const opened = await postgres!.open();
    try {
      const plan = await opened.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const query = trx.selectFrom('orders').select('id').where((eb) => postgresOrderSearch.matches(eb, 'Смирнов')).compile();
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]));
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('orders_search_trgm');
    } finally {
      await opened.close();
    }
  });
});
