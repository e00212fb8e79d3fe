import { createTestApp } from '../helpers/test-app';
import { consoleLogger } from '../../electron/core/logger';
it('dbg', async () => {
  const t = await createTestApp({ log: consoleLogger });
  const r = await t.app.dispatch('connections.create', t.shop, { providerKey: 'upstream', name: 'X', baseUrl: 'http://127.0.0.1:1/', credentials: { token: 'abc' } });
  console.log(JSON.stringify(r));
  await t.close();
});
