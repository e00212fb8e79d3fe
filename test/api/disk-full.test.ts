import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors';
import type { Logger } from '../../electron/core/logger';
import { orderPayload } from '../helpers/payloads';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/small-disk';
import { startTestServer, type TestServer } from '../helpers/test-server';

const disk = mountSmallDisk('disk-full test');
const logged: string[] = [];
const log: Logger = {
  info: () => {},
  warn: (m) => logged.push(m),
  error: (m, e) => logged.push(`${m}: ${e instanceof Error ? e.message : String(e)}`),
  child: () => log,
};

describe.skipIf(disk === null)('a full disk', () => {
  let server: TestServer;
  const filler = join(disk ?? '', 'filler.bin');
  beforeAll(async () => {
    server = await startTestServer({ dataDir: join(disk!, 'data'), log });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(filler, { force: true });
    unmountSmallDisk(disk!);
  });

  it('is said plainly (507), keeps answering reads, and is over by itself once there is space', async () => {
    const first = await server.call('POST', '/v1/orders', { body: orderPayload('FULL-0') });
    expect(first.status, first.text).toBe(200);

    fillDisk(filler);
    let refused: Awaited<ReturnType<TestServer['call']>> | undefined;
    for (let n = 1; n <= 300 && !refused; n++) {
      const res = await server.call('POST', '/v1/orders', { body: orderPayload(`FULL-${n}`, (o) => (o.order.comment = 'x'.repeat(900))) });
      if (res.status !== 200) refused = res;
    }
    expect(refused?.status, refused?.text).toBe(507);
    expect(refused?.json).toMatchObject({ code: ErrorCode.storageFull, message: 'Insufficient storage' });

    const read = await server.call('GET', '/v1/orders/' + first.json.orderId);
    expect(read.status).toBe(200);

    rmSync(filler);
    const after = await server.call('POST', '/v1/orders', { body: orderPayload('FULL-AFTER') });
    expect(after.status, after.text).toBe(200);
    expect(logged.join('\n')).not.toContain('cannot rollback');
  });
});
