import { startTestServer } from '../helpers/test-server';
import { consoleLogger } from '../../electron/core/logger';
it('x', async () => {
  const s = await startTestServer({ log: consoleLogger });
  const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  const deepA = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const cases: [string, string, string][] = [
    ['POST', '/orders/upload', `{"providerKey":"x","columnMap":${deep(100000)}}`],
    ['POST', '/orders/upload', `{"providerKey":"x","defaultData":${deep(100000)}}`],
    ['POST', '/orders/upload', `{"providerKey":"x","columnMap":${deep(5000)}}`],
    ['POST', '/orders/statuses', `{"orderIds":${deepA(100000)}}`],
    ['POST', '/orders', deepA(1000000)],
    ['POST', '/orders', `{"extraParams":${deep(100000)}}`],
    ['POST', '/calculator', `{"places":${deepA(100000)}}`],
  ];
  for (const [m, p, body] of cases) {
    const r = await s.call(m, p, { raw: body, headers: { 'Content-Type': 'application/json' } });
    console.log(m, p, body.length, r.status, r.text.slice(0, 300));
  }
  await s.close();
});
