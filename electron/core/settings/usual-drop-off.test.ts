import type { Point } from '../../../shared/schemas/lists';
import { createTestApp } from '../../../test/helpers/test-app';
import { ownerOf } from '../auth/caller';

describe('the usual drop-off office of a service', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const call = (name: string, input: unknown, ctx = env.shop) => env.app.dispatch(name, ctx, input);
  const points = async (providerKey: string): Promise<Point[]> => {
    const result = await call('lists.points', { providerKey, limit: 500 });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    return (result.value as { rows: Point[] }).rows;
  };

  it('is remembered per company and service, and offered back', async () => {
    const office = (await points('sandbox-express')).find((p) => p.availableOperation !== 2)!;
    expect(await call('dropOff.usual', { providerKey: 'sandbox-express' })).toEqual({ ok: true, value: null });
    expect(await call('dropOff.remember', { providerKey: 'sandbox-express', pointId: office.id })).toMatchObject({ ok: true, value: { id: office.id } });
    expect(await call('dropOff.usual', { providerKey: 'sandbox-express' })).toMatchObject({ ok: true, value: { id: office.id, address: office.address } });
    expect(await call('dropOff.usual', { providerKey: 'sandbox-post' })).toEqual({ ok: true, value: null });

    const other = ownerOf((await env.app.services.companies.ensureWithToken('other-shop-token')).companyId);
    expect(await call('dropOff.usual', { providerKey: 'sandbox-express' }, other)).toEqual({ ok: true, value: null });
  });

  it('refuses a point that only hands orders out, or one of another service, and keeps the office it had', async () => {
    const all = [...(await points('sandbox-express')), ...(await points('sandbox-post')), ...(await points('sandbox-lockers'))];
    const issueOnly = all.find((p) => p.availableOperation === 2);
    expect(issueOnly).toBeDefined();
    const office = (await points('sandbox-express')).find((p) => p.availableOperation !== 2)!;
    await call('dropOff.remember', { providerKey: 'sandbox-express', pointId: office.id });

    const refused = await call('dropOff.remember', { providerKey: issueOnly!.providerKey, pointId: issueOnly!.id });
    expect(refused).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'pointId', message: expect.stringMatching(/does not take orders in/) }] } });
    const elsewhere = await call('dropOff.remember', { providerKey: 'sandbox-express', pointId: 999_999_999 });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'pointId' }] } });
    expect(await call('dropOff.usual', { providerKey: 'sandbox-express' })).toMatchObject({ ok: true, value: { id: office.id } });
  });
});
