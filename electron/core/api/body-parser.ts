import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BODY_PARSE_THREADS, HELD_FILE_CHARS, INLINE_PARSE_LIMIT } from './body-limits';
import type { MessageParam } from '../../../shared/messages';
import { xmlParserOptions } from './xml';

/**
 * A parsing thread idle this long ends. It keeps its heap as it was after its last body (the body's text and its
 * value, tens of MB that no collection claims while the thread sleeps): an upload's job ran beside ≈ 50 MB of it.
 */
export const BODY_THREAD_IDLE_MS = 250;

/** What a parse gives: the JSON value or the XML document tree, or why the text is not one. */
export type ParsedText =
  /** `file`: the bytes of the asked file field, decoded here (its place in `value` is then ''). */
  | { ok: true; value: unknown; file?: Uint8Array }
  | { ok: false; problem: 'encoding' }
  /** Nested too deep to be handed from the parsing thread (far deeper than MAX_INPUT_DEPTH). */
  | { ok: false; problem: 'depth' }
  /** The parser's own words on what is wrong (the description says "Malformed XML: {detail}"). */
  | { ok: false; problem: 'syntax'; detail: MessageParam };

export type TextFormat = 'json' | 'xml';

/**
 * The thread's code, plain CommonJS so it runs the same from source, from the serve bundle and inside the
 * Electron bundle (where no .ts file exists). It only decodes and parses: what the value means is decided
 * on the main thread, by the same code as for small bodies (codec.ts).
 */
const threadSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { XMLParser } = require(workerData.fastXmlParser);
const xml = new XMLParser(workerData.xmlOptions);
const utf8 = new TextDecoder('utf-8', { fatal: true });
const describe = (e) => (typeof e === 'object' && e && 'err' in e ? JSON.stringify(e.err) : String(e));
const canonicalBase64 = /^[A-Za-z0-9+/]*={0,2}$/;
// A long base64 text in its plain form (no line breaks, the standard alphabet: what clients send) at the field
// asked for: decoded here, its place left ''. Any other text stays as it is, for the main thread to judge.
const takeFile = (value, format, field) => {
  if (!field || value === null || typeof value !== 'object') return undefined;
  const roots = Object.keys(value);
  if (format === 'xml' && roots.length !== 1) return undefined;
  const path = format === 'xml' ? [roots[0], ...field] : field;
  let node = value;
  for (const key of path.slice(0, -1)) {
    node = node !== null && typeof node === 'object' && Object.hasOwn(node, key) ? node[key] : undefined;
  }
  const last = path[path.length - 1];
  if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, last)) return undefined;
  const text = node[last];
  if (typeof text !== 'string' || text.length < workerData.heldFrom || text.length % 4 !== 0 || !canonicalBase64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  node[last] = '';
  return bytes;
};
parentPort.on('message', ({ id, bytes, format, field }) => {
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    parentPort.postMessage({ id, result: { ok: false, problem: 'encoding' } });
    return;
  }
  let result;
  let moved = [];
  try {
    const value = format === 'xml' ? xml.parse(text, true) : JSON.parse(text);
    const file = takeFile(value, format, field);
    result = file ? { ok: true, value, file } : { ok: true, value };
    if (file && file.byteOffset === 0 && file.byteLength === file.buffer.byteLength) moved = [file.buffer];
  } catch (e) {
    result = { ok: false, problem: 'syntax', detail: format === 'xml' ? describe(e) : String(e && e.message) };
  }
  try {
    parentPort.postMessage({ id, result }, moved);
  } catch {
    // Only a value nested too deep to copy between threads gets here (a 100,000-deep object).
    parentPort.postMessage({ id, result: { ok: false, problem: 'depth' } });
  }
});
`;

interface Task {
  id: number;
  bytes: Uint8Array;
  format: TextFormat;
  /** The base64 file field to hand over as bytes (its keys). */
  field?: string[];
  resolve(result: ParsedText): void;
  reject(error: Error): void;
}

/**
 * Parses large request bodies on a few threads of their own: XML of tens of megabytes takes seconds
 * to parse, and the main thread answers everyone else meanwhile. Small bodies never leave the main thread.
 * Where a thread cannot start (a packaging that lacks the parser's files) large bodies are parsed inline.
 */
export function createBodyParser(parseInline: (bytes: Uint8Array, format: TextFormat) => ParsedText, threads = BODY_PARSE_THREADS, idleMs = BODY_THREAD_IDLE_MS) {
  const idle: Worker[] = [];
  /** The stop timers of idle threads: a thread idle for idleMs ends, and its memory with it. */
  const stopping = new Map<Worker, ReturnType<typeof setTimeout>>();
  const busy = new Map<Worker, Task>();
  const waiting: Task[] = [];
  let started = 0;
  let nextId = 1;
  let unavailable = false;
  let closed = false;

  /** Ends an idle thread: out of the idle list first, so no body is given to it while it stops. */
  function stop(worker: Worker) {
    stopping.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    void worker.terminate();
  }

  function startThread(): Worker | null {
    try {
      const worker = new Worker(threadSource, {
        eval: true,
        workerData: { fastXmlParser: createRequire(import.meta.url).resolve('fast-xml-parser'), xmlOptions: xmlParserOptions, heldFrom: HELD_FILE_CHARS },
      });
      worker.unref(); // an idle parser never keeps the process alive
      worker.on('message', ({ id, result }: { id: number; result: ParsedText }) => {
        const task = busy.get(worker);
        if (!task || task.id !== id) return;
        busy.delete(worker);
        idle.push(worker);
        stopping.set(worker, setTimeout(() => stop(worker), idleMs).unref());
        task.resolve(result);
        pump();
      });
      let gone = false;
      const lost = (error: Error) => {
        if (gone) return;
        gone = true;
        const task = busy.get(worker);
        busy.delete(worker);
        clearTimeout(stopping.get(worker));
        stopping.delete(worker);
        const at = idle.indexOf(worker);
        if (at >= 0) idle.splice(at, 1);
        started--;
        task?.reject(error);
        pump();
      };
      worker.on('error', lost);
      worker.on('exit', (code) => lost(new Error(`the body-parsing thread stopped (${code})`)));
      started++;
      return worker;
    } catch {
      unavailable = true;
      return null;
    }
  }

  function pump() {
    while (waiting.length > 0 && !closed) {
      const worker = idle.pop() ?? (started < threads ? startThread() : null);
      if (!worker) {
        if (unavailable && started === 0) for (const task of waiting.splice(0)) task.resolve(parseInline(task.bytes, task.format));
        return;
      }
      const task = waiting.shift()!;
      clearTimeout(stopping.get(worker));
      stopping.delete(worker);
      busy.set(worker, task);
      // The bytes move to the thread instead of being copied when the buffer is the body's own.
      const { bytes } = task;
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      worker.postMessage({ id: task.id, bytes, format: task.format, field: task.field }, own ? [bytes.buffer as ArrayBuffer] : []);
    }
  }

  return {
    /**
     * Decodes (UTF-8) and parses a body; large ones off the main thread, where a long base64 text at `file`
     * (the keys of a route's bodyFile) is decoded too and comes back as `file` bytes.
     */
    parse(bytes: Uint8Array, format: TextFormat, file?: string[]): Promise<ParsedText> {
      if (bytes.length <= INLINE_PARSE_LIMIT || unavailable || closed) return Promise.resolve(parseInline(bytes, format));
      return new Promise<ParsedText>((resolve, reject) => {
        waiting.push({ id: nextId++, bytes, format, field: file, resolve, reject });
        pump();
      });
    },
    /** Threads started and not yet stopped (idle or parsing). */
    get threads() {
      return started;
    },
    /** Stops the threads; bodies still waiting are parsed inline. */
    async close(): Promise<void> {
      closed = true;
      for (const timer of stopping.values()) clearTimeout(timer);
      for (const task of waiting.splice(0)) task.resolve(parseInline(task.bytes, task.format));
      await Promise.all([...idle, ...busy.keys()].map((worker) => worker.terminate()));
    },
  };
}

export type BodyParser = ReturnType<typeof createBodyParser>;
