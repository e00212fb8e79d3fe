import { afterEach, describe, expect, it } from 'vitest';
import { said } from '../../../../shared/messages';
import { testEngines, twoCompanies, type TestStores } from '../test-engines';

describe.each(testEngines)('the webhooks store ($name)', ({ name, open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  async function withShop() {
    opened = await open();
    const { webhooks } = opened.stores;
    const { shop, other } = await twoCompanies(opened.stores);
    const hook = (companyId: number, url: string, uuid = url) => ({ uuid, companyId, type: 'ORDER_STATUS' as const, url, secret: `s-${uuid}`, createdAt: 5 });
    return { webhooks, shop, other, hook, seedStatus: opened.seedStatus };
  }

  it('never passes the limit when webhooks are added at once', async () => {
    const { webhooks, shop, hook } = await withShop();
    // Every connection of the pool open first, so that the four transactions start together.
    await Promise.all(['a', 'b', 'c', 'd'].map((uuid) => webhooks.webhook(shop.id, uuid)));
    const added = await Promise.all(['a', 'b', 'c', 'd'].map((host) => webhooks.ensureWebhook(hook(shop.id, `https://${host}.example/h`), 2)));
    expect(added.filter((w) => w === 'full')).toHaveLength(2);
    expect((await webhooks.webhooks(shop.id, { offset: 0, limit: 10 })).total).toBe(2);
  });

  it('registers one webhook per url and type, up to the limit, and keeps companies apart', async () => {
    const { webhooks, shop, other, hook } = await withShop();
    const first = await webhooks.ensureWebhook(hook(shop.id, 'https://a.example/h', 'u1'), 2);
    const again = await webhooks.ensureWebhook(hook(shop.id, 'https://a.example/h', 'u2'), 2);
    expect(again).toEqual(first);
    expect(await webhooks.ensureWebhook(hook(shop.id, 'https://b.example/h'), 2)).toMatchObject({ url: 'https://b.example/h' });
    expect(await webhooks.ensureWebhook(hook(shop.id, 'https://c.example/h'), 2)).toBe('full');
    expect(await webhooks.ensureWebhook(hook(other.id, 'https://a.example/h', 'u3'), 2)).toMatchObject({ uuid: 'u3', companyId: other.id });

    expect(await webhooks.webhook(other.id, 'u1')).toBeUndefined();
    const page = await webhooks.webhooks(shop.id, { offset: 1, limit: 5 });
    expect({ total: page.total, urls: page.rows.map((w) => w.url) }).toEqual({ total: 2, urls: ['https://b.example/h'] });
    expect((await webhooks.allWebhooks()).map((w) => [w.companyName, w.url, w.waiting])).toEqual([
      ['My shop', 'https://a.example/h', 0],
      ['My shop', 'https://b.example/h', 0],
      ['Other', 'https://a.example/h', 0],
    ]);
  });

  it('queues a call per webhook for each recorded status, counts each attempt before it goes out, and keeps every attempt', async () => {
    const { webhooks, shop, other, hook, seedStatus } = await withShop();
    const site = await webhooks.ensureWebhook(hook(shop.id, 'https://a.example/h'), 20);
    if (site === 'full') throw new Error('room for one webhook');
    const statusId = await seedStatus(shop.id, 'A-1', 'created');
    await seedStatus(other.id, 'B-1'); // another company's status calls no webhook of this one

    expect(await webhooks.hasDueCalls(100)).toBe(true);
    const [call, ...more] = await webhooks.claimDueCalls(100, 10, [30, 60], 5);
    expect(more).toEqual([]);
    expect(call).toMatchObject({ attempt: 1, statusId, webhook: { id: site.id, url: 'https://a.example/h', secret: site.secret, companyId: shop.id } });
    // Counted and moved on: not due again until its first delay has passed.
    expect(await webhooks.claimDueCalls(129, 10, [30, 60], 5)).toEqual([]);

    await webhooks.recordAttempt({ deliveryId: call.deliveryId, webhookId: site.id }, { at: 101, httpStatus: null, error: said('webhook.refused') });
    const [second] = await webhooks.claimDueCalls(130, 10, [30, 60], 5);
    expect(second.attempt).toBe(2);
    await webhooks.recordAttempt({ deliveryId: call.deliveryId, webhookId: site.id }, { at: 131, httpStatus: 200, error: null, finished: 'delivered' });
    expect(await webhooks.hasDueCalls(10_000)).toBe(false);

    expect(await webhooks.attemptCount(site.id)).toBe(2);
    const attempts = (await webhooks.attempts([site.id], 1, 1)).get(site.id)!;
    // Why it failed, as the interface's English and by key for the window.
    expect(attempts).toEqual([
      expect.objectContaining({ at: 101, httpStatus: null, error: 'the site refused the connection', errorMessage: { key: 'webhook.refused' }, statusId }),
    ]);

    await webhooks.forgetFinished(131);
    expect(await webhooks.attemptCount(site.id)).toBe(2);
    await webhooks.forgetFinished(132);
    expect(await webhooks.attemptCount(site.id)).toBe(0);
  });

  // Two instances on one database (PostgreSQL): SQLite's one app has no other claim to meet.
  it.skipIf(name === 'sqlite')('leaves the calls another instance is claiming at this moment to it, taking the others at once', async () => {
    const { webhooks, shop, hook, seedStatus } = await withShop();
    const site = await webhooks.ensureWebhook(hook(shop.id, 'https://a.example/h'), 20);
    if (site === 'full') throw new Error('room for one webhook');
    for (let i = 1; i <= 3; i++) await seedStatus(shop.id, `A-${i}`);
    const [first] = await opened!.db.selectFrom('webhook_deliveries').select('id').orderBy('id').limit(1).execute();
    await opened!.db.transaction().execute(async (claiming) => {
      // The other instance's claim, under way: it holds the first call's row until it commits.
      await claiming.selectFrom('webhook_deliveries').select('id').where('id', '=', first.id).forUpdate().execute();
      const mine = await webhooks.claimDueCalls(100, 10, [30], 5);
      expect(mine.map((c) => c.deliveryId).sort()).not.toContain(first.id);
      expect(mine).toHaveLength(2);
      expect(mine.every((c) => c.attempt === 1 && c.until === 130)).toBe(true);
    });
  });

  it('takes a call given back as due again when it was, its attempt not counted; a claim that is no longer its own gives nothing back', async () => {
    const { webhooks, shop, hook, seedStatus } = await withShop();
    const site = await webhooks.ensureWebhook(hook(shop.id, 'https://a.example/h'), 20);
    if (site === 'full') throw new Error('room for one webhook');
    await seedStatus(shop.id, 'A-1');
    const [call] = await webhooks.claimDueCalls(100, 10, [30, 60], 5);
    expect(call).toMatchObject({ attempt: 1, until: 130, dueAt: expect.any(Number) });
    expect(call.dueAt).toBeLessThanOrEqual(100);

    await webhooks.giveBack(call);
    const [again] = await webhooks.claimDueCalls(101, 10, [30, 60], 5);
    expect(again).toMatchObject({ deliveryId: call.deliveryId, attempt: 1, until: 131, dueAt: call.dueAt });

    // Claimed again once its claim ended (another instance): the old claim's give-back changes nothing.
    const [taken] = await webhooks.claimDueCalls(131, 10, [30, 60], 5);
    expect(taken).toMatchObject({ deliveryId: call.deliveryId, attempt: 2, until: 191 });
    await webhooks.giveBack(again);
    expect(await webhooks.claimDueCalls(190, 10, [30, 60], 5)).toEqual([]);
    expect(await webhooks.attemptCount(site.id)).toBe(0);
  });

  it('records nothing for a call whose webhook was deleted while it was out', async () => {
    const { webhooks, shop, hook, seedStatus } = await withShop();
    const site = await webhooks.ensureWebhook(hook(shop.id, 'https://a.example/h'), 20);
    if (site === 'full') throw new Error('room for one webhook');
    await seedStatus(shop.id, 'A-1');
    const [call] = await webhooks.claimDueCalls(1, 10, [], 5);
    await webhooks.deleteWebhook(site.id);
    await webhooks.recordAttempt({ deliveryId: call.deliveryId, webhookId: site.id }, { at: 2, httpStatus: 200, error: null, finished: 'delivered' });
    expect(await webhooks.attemptCount(site.id)).toBe(0);
    expect(await webhooks.webhook(shop.id, site.uuid)).toBeUndefined();
  });
});
