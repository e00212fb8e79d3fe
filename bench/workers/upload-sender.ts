// The bodies benchmark's uploads, sent from a process of their own: the process that times the probes then does
// nothing else, so a late tick of its event loop (3 × 40 MB going out) is not counted as the server's.
// Messages: { type: 'send' } sends every body at once and answers { type: 'sent', statuses }.
import { parseArgs } from 'node:util';
import { sendToParent } from '../lib/child';
import { createRng } from '../lib/prng';
import { timedCall } from '../lib/timed-call';

const { values } = parseArgs({ options: { base: { type: 'string' }, token: { type: 'string' }, bytes: { type: 'string' }, uploads: { type: 'string' } } });

/** An XML upload body of about `bytes`: a file.base64 of random bytes (the server reads the whole body before it can tell). */
function xmlUpload(bytes: number, seed: number): Buffer {
  const rng = createRng(seed);
  const raw = Buffer.alloc(Math.floor((bytes * 3) / 4));
  for (let i = 0; i < raw.length; i += 4) raw.writeUInt32LE(Math.floor(rng.next() * 2 ** 32) >>> 0, Math.min(i, raw.length - 4));
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><request><providerKey>sandbox-express</providerKey><mode>async</mode>` +
      `<file><base64>${raw.toString('base64')}</base64></file>` +
      `<columnSettings><timeFormat>H:i</timeFormat><nameFormat>0</nameFormat><itemsNewRow>1</itemsNewRow></columnSettings>` +
      `<columnMap><order><clientNumber>A</clientNumber></order></columnMap></request>`,
  );
}

const bodies = Array.from({ length: Number(values.uploads) }, (_, i) => xmlUpload(Number(values.bytes), 7 + i));

process.on('message', (m: { type: string }) => {
  if (m.type !== 'send') return;
  Promise.all(bodies.map((body) => timedCall(values.base!, values.token!, 'POST', '/v1/orders/upload', body).then((r) => r.status)))
    .then((statuses) => sendToParent({ type: 'sent', statuses }))
    .catch((error: unknown) => sendToParent({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
});
void sendToParent({ type: 'ready' });
