import { request } from 'node:http';
import { contract } from '../../shared/contract';
import { DEFAULT_COMMAND_BODY_LIMIT } from '../../shared/contract/define';
import { commandBodyLimit } from '../../electron/core/api/body-limits';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** Sends `bytes` of body in 64 KiB chunks without Content-Length (chunked), as a client streaming a body would. */
function streamed(server: TestServer, path: string, bytes: number): Promise<{ status: number; text: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.base}${path}`, { method: 'POST', headers: { Authorization: server.owner, 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, sent }));
    });
    let sent = 0;
    req.on('error', (error) => (sent < bytes ? resolve({ status: -1, text: String(error), sent }) : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('POST /app/commands/<name>: each command its own body limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('declares the limits beside the roles: larger only for the workbook preview, backup parts and bulk exports', () => {
    const own = Object.entries(contract).filter(([, spec]) => 'bodyLimit' in spec).map(([name]) => name).sort();
    expect(own).toEqual(['backup.upload', 'import.preview', 'orders.exportXlsx']);
    expect(commandBodyLimit('settings.get')).toBe(DEFAULT_COMMAND_BODY_LIMIT);
    expect(commandBodyLimit('no.such.command')).toBe(DEFAULT_COMMAND_BODY_LIMIT);
    expect(commandBodyLimit('import.preview')).toBeGreaterThan(40 * 2 ** 20);
    expect(commandBodyLimit('backup.upload')).toBeGreaterThan((4 * 2 ** 20 * 4) / 3);
  });

  it('refuses a 2 MiB body of a small command with 413 and a message the window can say in its language', async () => {
    const res = await server.call('POST', '/app/commands/settings.get', { raw: ' '.repeat(2 * 2 ** 20), headers: { Authorization: server.owner, 'Content-Type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ code: '040000', message: 'Payload too large', description: `The body must be at most ${DEFAULT_COMMAND_BODY_LIMIT} bytes (1 MiB)`, key: 'api.bodyTooLarge', params: { mib: 1, bytes: DEFAULT_COMMAND_BODY_LIMIT } });
  });

  it('counts a body sent without Content-Length as it streams in, and stops reading past the limit', async () => {
    const res = await streamed(server, '/app/commands/settings.get', 2 * 2 ** 20);
    // Either the 413 arrives, or the server closed the connection after answering while the client still wrote.
    if (res.status !== -1) {
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text)).toMatchObject({ code: '040000', key: 'api.bodyTooLarge' });
    }
    // The server is still there for the next caller.
    const next = await server.call('POST', '/app/commands/settings.get', { body: {}, headers: { Authorization: server.owner } });
    expect(next.status).toBe(200);
  });

  it('takes a 5 MiB import preview: the import itself judges the file', async () => {
    const base64 = Buffer.alloc(Math.floor((5 * 2 ** 20 * 3) / 4) - 1024, 7).toString('base64');
    const body = { file: { name: 'big.xlsx', base64 }, rows: 5 };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(5 * 2 ** 20 - 4096);
    const res = await server.call('POST', '/app/commands/import.preview', { body, headers: { Authorization: server.owner } });
    expect(res.status, res.text.slice(0, 300)).not.toBe(413);
    expect(res.text).not.toContain('bodyTooLarge');
    expect(res.text).not.toContain('Payload too large');
  });
});
