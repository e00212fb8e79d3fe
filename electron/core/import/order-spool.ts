import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { PreparedOrder } from '../store/orders/prepared-order';

/**
 * The checked orders of a run, kept in a file between the check and the writing instead of in memory.
 * A run checks the whole file before it writes anything; 100,000 orders' payloads held as strings were
 * hundreds of MB of heap (and, with V8 collecting in proportion to what lives, as much again of garbage).
 * Here each order is a line of UTF-8 appended to a file; memory keeps two numbers per order (where its
 * record starts, how long it is), and a batch is read back with one read of the span it covers.
 */

/**
 * Records are encoded into this many bytes outside the heap before each write to the file: strings kept
 * until a write (a MiB of them) lived long enough to be promoted, and as old garbage raised the heap's peak.
 */
const chunkBytes = 256 * 1024;

type Columns = [string, string, number | null, string, string, string | null, number, number, number | null, number | null];

// The columns as a JSON array, a newline, the payload (JSON never holds a raw newline).
const encode = (o: PreparedOrder) =>
  `${JSON.stringify([o.clientNumber, o.providerKey, o.providerConnectId, o.recipientName, o.recipientPhone, o.recipientCity, o.codKopecks, o.assessedKopecks, o.quotedDeliveryKopecks, o.deliveryKopecks] satisfies Columns)}\n${o.json}`;

function decode(text: string): PreparedOrder {
  const cut = text.indexOf('\n');
  const [clientNumber, providerKey, providerConnectId, recipientName, recipientPhone, recipientCity, codKopecks, assessedKopecks, quotedDeliveryKopecks, deliveryKopecks] = JSON.parse(
    text.slice(0, cut),
  ) as Columns;
  return { clientNumber, providerKey, providerConnectId, recipientName, recipientPhone, recipientCity, codKopecks, assessedKopecks, quotedDeliveryKopecks, deliveryKopecks, json: text.slice(cut + 1) };
}

export function createOrderSpool(file: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'w+');
  let starts = new Float64Array(1024).fill(-1);
  let lengths = new Uint32Array(1024);
  const chunk = Buffer.allocUnsafe(chunkBytes);
  let used = 0;
  let size = 0;
  let count = 0;
  let closed = false;

  function writeAll(bytes: Buffer, length: number) {
    for (let at = 0; at < length; ) at += writeSync(fd, bytes, at, length - at);
  }
  function flush() {
    writeAll(chunk, used);
    used = 0;
  }

  function readSpan(from: number, to: number): Buffer {
    const buffer = Buffer.allocUnsafe(to - from);
    for (let at = 0; at < buffer.length; ) {
      const n = readSync(fd, buffer, at, buffer.length - at, from + at);
      if (n === 0) throw new Error(`order spool ${file}: ended before its records`);
      at += n;
    }
    return buffer;
  }

  const has = (seq: number) => seq < starts.length && starts[seq] >= 0;

  return {
    /** Keeps the checked order of `seq`. */
    put(seq: number, order: PreparedOrder) {
      if (seq >= starts.length) {
        const grown = new Float64Array(Math.max(seq + 1, starts.length * 2)).fill(-1);
        grown.set(starts);
        starts = grown;
        const longer = new Uint32Array(grown.length);
        longer.set(lengths);
        lengths = longer;
      }
      const text = encode(order);
      const bytes = Buffer.byteLength(text, 'utf8');
      if (!has(seq)) count++;
      starts[seq] = size;
      lengths[seq] = bytes;
      size += bytes;
      if (used + bytes > chunkBytes) flush();
      if (bytes > chunkBytes) writeAll(Buffer.from(text, 'utf8'), bytes);
      else used += chunk.write(text, used, 'utf8');
    },

    has,

    /** Forgets the order of `seq` (it will not be written). */
    drop(seq: number) {
      if (!has(seq)) return;
      starts[seq] = -1;
      count--;
    },

    /** How many orders are kept. */
    get size() {
      return count;
    },

    /** The kept orders among `seqs` (neighbours in the file: they were checked together), by seq. */
    read(seqs: readonly number[]): Map<number, PreparedOrder> {
      flush();
      const kept = seqs.filter(has);
      const found = new Map<number, PreparedOrder>();
      if (!kept.length) return found;
      let from = Number.POSITIVE_INFINITY;
      let to = 0;
      let total = 0;
      for (const seq of kept) {
        from = Math.min(from, starts[seq]);
        to = Math.max(to, starts[seq] + lengths[seq]);
        total += lengths[seq];
      }
      if (to - from <= 4 * total) {
        const span = readSpan(from, to);
        for (const seq of kept) found.set(seq, decode(span.toString('utf8', starts[seq] - from, starts[seq] - from + lengths[seq])));
      } else {
        // scattered records (never in practice): one read each rather than a long span
        for (const seq of kept) found.set(seq, decode(readSpan(starts[seq], starts[seq] + lengths[seq]).toString('utf8')));
      }
      return found;
    },

    /** Closes and deletes the file. */
    remove() {
      if (closed) return;
      closed = true;
      closeSync(fd);
      rmSync(file, { force: true });
    },
  };
}

export type OrderSpool = ReturnType<typeof createOrderSpool>;
