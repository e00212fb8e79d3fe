import { createTestApp } from '../../../test/helpers/test-app';
import { ownerOf } from '../auth/caller';

describe('settings', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const call = (name: string, input: unknown, ctx = env.shop) => env.app.dispatch(name, ctx, input);
  const value = async (name: string, input: unknown, ctx = env.shop): Promise<any> => {
    const result = await call(name, input, ctx);
    if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  const sender = { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван', phone: '+79161234567' };

  it('a new shop gets the defaults, its token and where its data lives', async () => {
    const settings = await value('settings.get', {});
    expect(settings.preferences).toEqual({ refreshIntervalMinutes: 30, stuckThresholdDays: 5, language: 'system', localApiEnabled: true, allowLocalDownloads: false, allowLocalWebhooks: false });
    expect(settings.company.name).toBe('Мой магазин');
    expect(settings.senderProfiles).toEqual([]);
    expect(settings.dataDir).toBe(env.dataDir);
    expect(settings.apiToken).toEqual(expect.any(String));
    expect(settings.pendingRestore).toBeNull();
  });

  it('changes company details and preferences, and refuses values out of range without changing anything', async () => {
    const updated = await value('settings.update', {
      company: { name: 'ООО Ромашка', inn: '7707083893', email: 'shop@example.ru' },
      preferences: { refreshIntervalMinutes: 15, language: 'ru' },
    });
    expect(updated.company).toMatchObject({ name: 'ООО Ромашка', inn: '7707083893', email: 'shop@example.ru' });
    expect(updated.preferences).toMatchObject({ refreshIntervalMinutes: 15, language: 'ru', stuckThresholdDays: 5 });

    const refused = await call('settings.update', { preferences: { refreshIntervalMinutes: 2, stuckThresholdDays: 5 }, company: { inn: '123' } });
    expect(refused).toMatchObject({ ok: false, error: { code: '040002' } });
    const fields = (refused as any).error.errors.map((e: any) => e.field).sort();
    expect(fields).toEqual(['company.inn', 'preferences.refreshIntervalMinutes']);
    expect((await value('settings.get', {})).preferences.refreshIntervalMinutes).toBe(15);
  });

  it('the first sender profile is the default; another can take over; deleting the default promotes the oldest', async () => {
    const first = await value('senderProfiles.create', { name: 'Склад', sender });
    const second = await value('senderProfiles.create', { name: 'Офис', sender: { ...sender, city: 'Тула' } });
    expect(first.isDefault).toBe(true);
    expect(second.isDefault).toBe(false);
    await value('senderProfiles.update', { id: second.id, isDefault: true });
    let settings = await value('settings.get', {});
    expect(settings.defaultSenderProfileId).toBe(second.id);
    expect(settings.senderProfiles[0]).toMatchObject({ id: second.id, sender: { city: 'Тула' } });
    await value('senderProfiles.delete', { id: second.id });
    settings = await value('settings.get', {});
    expect(settings.defaultSenderProfileId).toBe(first.id);
    expect(await call('senderProfiles.create', { name: 'Без телефона', sender: { ...sender, phone: '' } })).toMatchObject({ ok: false, error: { code: '040002' } });
  });

  it('sender profiles belong to their company', async () => {
    const other = ownerOf((await env.app.services.companies.ensureWithToken('other')).companyId);
    const mine = await value('senderProfiles.create', { name: 'Склад', sender });
    expect(await value('senderProfiles.list', {}, other)).toEqual([]);
    expect(await call('senderProfiles.update', { id: mine.id, name: 'x' }, other)).toMatchObject({ ok: false, error: { code: '040016' } });
    expect(await call('senderProfiles.delete', { id: mine.id }, other)).toMatchObject({ ok: false });
  });

  it('a new API token replaces the old one at once', async () => {
    const before = (await value('settings.get', {})).apiToken;
    const { apiToken } = await value('settings.regenerateToken', {});
    expect(apiToken).not.toBe(before);
    expect(await env.app.services.companies.byToken(before)).toBeUndefined();
    expect(await env.app.services.companies.byToken(apiToken)).toEqual({ companyId: env.shop.companyId });
  });

  it('preferences are the app\'s, kept across a restart', async () => {
    await value('settings.update', { preferences: { stuckThresholdDays: 9, localApiEnabled: false } });
    expect(await env.app.services.settings.localApiEnabled()).toBe(false);
    await env.app.close();
    const { createApp } = await import('../app');
    const { silentLogger } = await import('../logger');
    const again = await createApp({ dataDir: env.dataDir, clock: env.clock, log: silentLogger });
    try {
      expect(await again.services.settings.preferences()).toMatchObject({ stuckThresholdDays: 9, localApiEnabled: false });
    } finally {
      await again.close();
    }
  });
});
