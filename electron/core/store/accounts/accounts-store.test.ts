import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from '../test-engines';

const sender = (city: string) => ({ name: 'Склад', phone: '+79990000000', address: { city } }) as never;

describe.each(testEngines)('the accounts store ($name)', ({ open }) => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());

  async function withShops() {
    const opened = await open();
    close = opened.close;
    const { accounts } = opened.stores;
    const shop = await accounts.createCompany({ name: 'My shop', apiToken: 'shop-token', isDesktop: true, createdAt: 1 });
    const client = await accounts.createCompany({ name: 'API client', apiToken: 'client-token', isDesktop: false, createdAt: 2 });
    return { accounts, shop, client };
  }

  it('finds companies by id, API token and as the desktop one, and follows a new token', async () => {
    const { accounts, shop, client } = await withShops();
    expect(await accounts.desktopCompany()).toEqual({ id: shop.id, name: 'My shop', apiToken: 'shop-token', isDesktop: true });
    expect((await accounts.companyByToken('client-token'))?.id).toBe(client.id);
    expect(await accounts.companyByToken('nobody')).toBeUndefined();
    await accounts.setApiToken(client.id, 'fresh');
    expect(await accounts.companyByToken('client-token')).toBeUndefined();
    expect((await accounts.company(client.id))?.apiToken).toBe('fresh');
  });

  it('keeps company details and renames the company with them', async () => {
    const { accounts, shop } = await withShops();
    expect(await accounts.companyDetails(shop.id)).toBeUndefined();
    await accounts.saveCompanyDetails(shop.id, { name: 'Лавка', details: { inn: '7700000000' }, at: 5 });
    await accounts.saveCompanyDetails(shop.id, { details: { inn: '7700000001' }, at: 6 });
    expect(await accounts.companyDetails(shop.id)).toEqual({ inn: '7700000001' });
    expect((await accounts.company(shop.id))?.name).toBe('Лавка');
  });

  it('keeps one default when two profiles are made the default at once, and when two first profiles are created at once', async () => {
    const { accounts, shop, client } = await withShops();
    const a = await accounts.createSenderProfile(shop.id, { name: 'A', sender: sender('Москва'), at: 10 });
    const b = await accounts.createSenderProfile(shop.id, { name: 'B', sender: sender('Тверь'), at: 11 });
    const c = await accounts.createSenderProfile(shop.id, { name: 'C', sender: sender('Казань'), at: 12 });
    await Promise.all([accounts.updateSenderProfile(shop.id, b, { isDefault: true, at: 13 }), accounts.updateSenderProfile(shop.id, c, { isDefault: true, at: 13 })]);
    const defaults = (await accounts.senderProfiles(shop.id)).filter((p) => p.isDefault).map((p) => p.id);
    expect(defaults).toHaveLength(1);
    expect([b, c]).toContain(defaults[0]);
    expect(defaults).not.toContain(a);

    await Promise.all(['X', 'Y'].map((name) => accounts.createSenderProfile(client.id, { name, sender: sender('Омск'), isDefault: true, at: 20 })));
    const created = await accounts.senderProfiles(client.id);
    expect(created).toHaveLength(2);
    expect(created.filter((p) => p.isDefault)).toHaveLength(1);
  });

  it('keeps exactly one default sender profile per company', async () => {
    const { accounts, shop, client } = await withShops();
    const first = await accounts.createSenderProfile(shop.id, { name: 'Склад', sender: sender('Москва'), at: 10 });
    const second = await accounts.createSenderProfile(shop.id, { name: 'Офис', sender: sender('Тула'), at: 11 });
    expect((await accounts.senderProfiles(shop.id)).map((p) => [p.id, p.isDefault])).toEqual([[first, true], [second, false]]);

    await accounts.updateSenderProfile(shop.id, second, { isDefault: true, name: 'Офис 2', at: 12 });
    expect((await accounts.senderProfiles(shop.id)).map((p) => [p.id, p.isDefault, p.name])).toEqual([[second, true, 'Офис 2'], [first, false, 'Склад']]);
    expect((await accounts.senderProfile(shop.id, first))?.sender).toEqual(sender('Москва'));

    await accounts.deleteSenderProfile(shop.id, second);
    expect((await accounts.senderProfiles(shop.id)).map((p) => [p.id, p.isDefault])).toEqual([[first, true]]);
    // Another company neither sees nor touches them.
    expect(await accounts.senderProfile(client.id, first)).toBeUndefined();
    await accounts.deleteSenderProfile(client.id, first);
    expect(await accounts.senderProfiles(shop.id)).toHaveLength(1);
  });

  it('gives app settings back as saved, and nothing for a key never saved', async () => {
    const { accounts } = await withShops();
    expect(await accounts.appSetting('lan')).toBeUndefined();
    await accounts.saveAppSetting('lan', { enabled: true, port: 8443 }, 1);
    await accounts.saveAppSetting('lan', { enabled: false, port: 8443 }, 2);
    expect(await accounts.appSetting('lan')).toEqual({ enabled: false, port: 8443 });
  });

  it('refuses an API login another company has, and lets its owner set it again', async () => {
    const { accounts, shop, client } = await withShops();
    expect(await accounts.saveApiLogin(shop.id, { login: 'shop', passwordHash: 'h1', at: 1 })).toBe('saved');
    expect(await accounts.saveApiLogin(shop.id, { login: 'shop', passwordHash: 'h2', at: 2 })).toBe('saved');
    expect(await accounts.saveApiLogin(client.id, { login: 'shop', passwordHash: 'h3', at: 3 })).toBe('taken');
    expect(await accounts.apiLoginOf(client.id)).toBeNull();
    expect(await accounts.apiLogin('shop')).toEqual({ companyId: shop.id, login: 'shop', passwordHash: 'h2', apiToken: 'shop-token' });
    await accounts.clearApiLogin(shop.id);
    expect(await accounts.apiLogin('shop')).toBeUndefined();
  });

  it('counts a packer’s live sessions and ends them on revoke and removal', async () => {
    const { accounts, shop } = await withShops();
    const vera = await accounts.createPacker(shop.id, { name: 'Vera', passwordHash: 'h', at: 1 });
    if (vera === 'taken') throw new Error('the first packer cannot be taken');
    expect(await accounts.createPacker(shop.id, { name: 'vera', passwordHash: 'h', at: 2 })).toBe('taken');

    const open = (secretHash: string, at: number, expiresAt: number) => accounts.openSession({ secretHash, role: 'packer', companyId: shop.id, userId: vera, at, expiresAt });
    const live = await open('a', 10, 1_000);
    await open('b', 20, 50);
    const owner = await accounts.openSession({ secretHash: 'o', role: 'owner', companyId: shop.id, userId: null, at: 30, expiresAt: null });
    expect(await accounts.packerSummaries(shop.id, 100)).toEqual([{ id: vera, name: 'Vera', createdAt: 1, activeSessions: 1, lastSignInAt: 20 }]);
    expect(await accounts.sessionBySecretHash('a')).toMatchObject({ id: live, role: 'packer', userId: vera, expiresAt: 1_000, revokedAt: null });

    expect(await accounts.revokeSessions({ role: 'owner' }, 200)).toEqual([{ id: owner, companyId: shop.id }]);
    expect(await accounts.revokeSessions({ role: 'owner' }, 201)).toEqual([]);
    expect((await accounts.session(owner))?.revokedAt).toBe(200);

    await accounts.deletePacker(vera);
    expect(await accounts.packers(shop.id)).toEqual([]);
    expect(await accounts.session(live)).toBeUndefined();
  });
});
