import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import { ownerOf } from '../auth/caller';

describe('order drafts', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const call = async (name: string, input: unknown, ctx = env.shop) => env.app.dispatch(name, ctx, input);
  const value = async (name: string, input: unknown, ctx = env.shop): Promise<any> => {
    const result = await call(name, input, ctx);
    if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
    return result.value;
  };

  it('keeps a half-typed form exactly as it was and replaces it on the next save', async () => {
    const first = await value('drafts.save', { data: { order: { clientNumber: 'D-1' }, recipient: { phone: '12' } } });
    expect(first.id).toMatch(/^d-/);
    env.clock.advance(1000);
    const second = await value('drafts.save', { id: first.id, data: { order: { clientNumber: 'D-1', weight: 'abc' }, recipient: { contactName: 'Анна' } } });
    expect(second.id).toBe(first.id);
    expect(await value('drafts.get', { id: first.id })).toMatchObject({
      id: first.id,
      data: { order: { clientNumber: 'D-1', weight: 'abc' }, recipient: { contactName: 'Анна' } },
    });
    expect((await value('drafts.list', {})).total).toBe(1);
  });

  it('a form-made id names the draft from the first save', async () => {
    await value('drafts.save', { id: 'form-42', data: {} });
    await value('drafts.save', { id: 'form-42', data: { order: { clientNumber: 'X' } } });
    expect((await value('drafts.list', {})).rows).toEqual([expect.objectContaining({ id: 'form-42', clientNumber: 'X' })]);
  });

  it('lists the last saved first with what the list shows', async () => {
    await value('drafts.save', { id: 'a', data: orderPayload('A-1') });
    env.clock.advance(1000);
    await value('drafts.save', { id: 'b', data: { order: { clientNumber: 'B-1', providerKey: 'nope' } } });
    const list = await value('drafts.list', {});
    expect(list.rows.map((r: any) => r.id)).toEqual(['b', 'a']);
    expect(list.rows[1]).toMatchObject({ clientNumber: 'A-1', recipient: 'Анна Смирнова', providerKey: 'sandbox-express' });
    expect(list.rows[1].serviceName).toEqual(expect.any(String));
    expect(list.rows[0].serviceName).toBeNull();
  });

  it('refuses a draft that is not an object or too large, and changes nothing', async () => {
    expect(await call('drafts.save', { data: 'text' })).toMatchObject({ ok: false, error: { code: '040002' } });
    expect(await call('drafts.save', { data: { big: 'x'.repeat(300 * 1024) } })).toMatchObject({ ok: false, error: { code: '040002' } });
    expect(await call('drafts.save', { id: 'bad id!', data: {} })).toMatchObject({ ok: false, error: { errors: [{ field: 'id' }] } });
    expect((await value('drafts.list', {})).total).toBe(0);
  });

  it('another company neither sees nor deletes the shop\'s drafts', async () => {
    const other = ownerOf((await env.app.services.companies.ensureWithToken('other')).companyId);
    await value('drafts.save', { id: 'mine', data: {} });
    expect((await value('drafts.list', {}, other)).total).toBe(0);
    expect(await call('drafts.get', { id: 'mine' }, other)).toMatchObject({ ok: false, error: { code: '040016' } });
    expect(await call('drafts.delete', { id: 'mine' }, other)).toMatchObject({ ok: false });
    await value('drafts.delete', { id: 'mine' });
    expect((await value('drafts.list', {})).total).toBe(0);
  });

  it('submit makes orders of the valid drafts and keeps the invalid ones with their field errors', async () => {
    await value('drafts.save', { id: 'good', data: orderPayload('SUB-1') });
    await value('drafts.save', { id: 'bad', data: orderPayload('SUB-2', (o) => ((o.recipient as any).phone = 'x')) });
    await value('drafts.save', { id: 'dup', data: orderPayload('SUB-1') });
    const result = await value('drafts.submit', { ids: ['good', 'bad', 'dup', 'missing'] });
    expect(result.created).toBe(1);
    expect(result.results[0]).toMatchObject({ id: 'good', ok: true, orderId: expect.any(String) });
    expect(result.results[1]).toMatchObject({ id: 'bad', ok: false, error: { code: '040002', errors: [{ field: 'recipient.phone' }] } });
    expect(result.results[2]).toMatchObject({ id: 'dup', ok: false, error: { errors: [{ field: 'order.clientNumber' }] } });
    expect(result.results[3]).toMatchObject({ id: 'missing', ok: false, error: { code: '040016' } });
    const order = await value('orders.get', { orderId: result.results[0].orderId });
    expect(order.order.clientNumber).toBe('SUB-1');
    expect((await value('drafts.list', {})).rows.map((r: any) => r.id).sort()).toEqual(['bad', 'dup']);
  });
});
