import { randomBytes } from 'node:crypto';
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

/** The key of the marks that stand for set-aside texts in the threads (hex: a document cannot spell it by chance). */
const markKey = randomBytes(12).toString('hex');

/**
 * The thread's code, plain CommonJS so it runs the same from source, from the serve bundle and inside the
 * Electron bundle (where no .ts file exists). It only decodes and parses: what the value means is decided
 * on the main thread, by the same code as for small bodies (codec.ts).
 */
const threadSource = `
const { parentPort, workerData } = require('node:worker_threads');
// Linux: this thread yields the CPU to the main thread (nice 10 for this thread alone), so requests keep their
// turn while big bodies are parsed. Elsewhere (no /proc/thread-self) it runs at the process's priority.
try {
  require('node:os').setPriority(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {}
const { XMLParser } = require(workerData.fastXmlParser);
const xml = new XMLParser(workerData.xmlOptions);
const utf8 = new TextDecoder('utf-8', { fatal: true });
const describe = (e) => (typeof e === 'object' && e && 'err' in e ? JSON.stringify(e.err) : String(e));
const canonicalBase64 = /^[A-Za-z0-9+/]*={0,2}$/;
// Long base64 texts of an XML document are set aside before the parser reads it: it builds a text a character
// at a time, and one 40 MB text node took it 35-46 s and 1.4 GB of heap (a script at load 10-14), two threads of
// it starving the main thread. Each text between '>' and '<' that is canonical base64 (spaces around kept)
// and at least heldFrom long is replaced by a mark no request can spell (this process's random key), and put
// back wherever the parser left the mark: the value is the one the whole document gives.
const markPrefix = 'held' + workerData.markKey + 'n';
const markPattern = new RegExp(markPrefix + '([0-9]+)x', 'g');
const exactMark = new RegExp('^' + markPrefix + '([0-9]+)x$');
const spaced = /^([ \\t\\r\\n]*)([A-Za-z0-9+/]+={0,2})[ \\t\\r\\n]*$/;
const setAside = (text) => {
  const runs = [];
  const pieces = [];
  let from = 0;
  for (let open = text.indexOf('>'); open >= 0; ) {
    const close = text.indexOf('<', open + 1);
    if (close < 0) break;
    if (close - open - 1 >= workerData.heldFrom) {
      const run = spaced.exec(text.slice(open + 1, close));
      if (run && run[2].length >= workerData.heldFrom && run[2].length % 4 === 0) {
        const start = open + 1 + run[1].length; // the spaces around stay as they are
        pieces.push(text.slice(from, start), markPrefix + runs.length + 'x');
        runs.push(run[2]);
        from = start + run[2].length;
      }
    }
    open = text.indexOf('>', close);
  }
  if (runs.length === 0) return { text, runs };
  pieces.push(text.slice(from));
  return { text: pieces.join(''), runs };
};
// Puts the set-aside texts back into every text of the value that holds a mark (walked without recursion: a
// value may be nested 100,000 deep).
const putBack = (value, runs) => {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (typeof v === 'string') {
        if (v.includes(markPrefix)) node[key] = v.replace(markPattern, (_, i) => runs[Number(i)]);
      } else if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
};
// A long base64 text in its plain form (no line breaks, the standard alphabet: what clients send) at the field
// asked for: decoded here, its place left ''. Any other text stays as it is, for the main thread to judge.
const takeFile = (value, format, field, runs) => {
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
  const mark = typeof node[last] === 'string' ? exactMark.exec(node[last]) : null;
  const text = mark ? runs[Number(mark[1])] : node[last];
  if (typeof text !== 'string' || text.length < workerData.heldFrom || text.length % 4 !== 0 || !canonicalBase64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  node[last] = '';
  return bytes;
};
const parseBody = (id, bytes, format, field) => {
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
    let aside = format === 'xml' ? setAside(text) : { text, runs: [] };
    let value;
    try {
      value = format === 'xml' ? xml.parse(aside.text, true) : JSON.parse(text);
    } catch (e) {
      if (aside.runs.length === 0) throw e;
      // A malformed document is read whole, as before, so that the complaint's lines and columns are its own.
      aside = { text, runs: [] };
      value = xml.parse(text, true);
    }
    const file = takeFile(value, format, field, aside.runs);
    if (aside.runs.length > 0) putBack(value, aside.runs);
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
};
// A body arrives whole ({ bytes }), or streams in: { length } opens it, { chunk }s fill it in order (the main
// thread never gathers it: its buffer is made and first touched here), { end } parses it, { cancel } drops it.
const arriving = new Map();
parentPort.on('message', (m) => {
  if (m.bytes) return parseBody(m.id, m.bytes, m.format, m.field);
  if (m.length !== undefined) return void arriving.set(m.id, { whole: Buffer.allocUnsafe(m.length), size: 0, format: m.format, field: m.field });
  const body = arriving.get(m.id);
  if (!body) return;
  if (m.chunk) {
    body.size += Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength).copy(body.whole, body.size);
    return;
  }
  arriving.delete(m.id);
  if (m.end) parseBody(m.id, body.whole.subarray(0, body.size), body.format, body.field);
});
`;

/**
 * The memory of `bytes` to move to a thread instead of copying it, when it is theirs alone (a body's buffer, an
 * HTTP body chunk): copied, each 64 KiB chunk of a 40 MB upload cost the main thread 167 ms of one 511 ms wait
 * (bench bodies at load 8-11). A view of shared memory (a pooled Buffer) is copied. Once moved, `bytes` is empty.
 */
const movable = (bytes: Uint8Array): ArrayBuffer[] =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];

interface Task {
  id: number;
  /** The whole body; absent: it streams in (`length` bytes at most), and `taken` says which thread has it (null: none, gathered here). */
  bytes?: Uint8Array;
  length?: number;
  taken?(worker: Worker | null): void;
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

  /** The thread is done with `task` (answered, or the body was dropped): it takes the next or idles. */
  function release(worker: Worker, task: Task) {
    if (busy.get(worker) !== task) return;
    busy.delete(worker);
    idle.push(worker);
    stopping.set(worker, setTimeout(() => stop(worker), idleMs).unref());
    pump();
  }

  /** Bodies no thread will take: whole ones parsed here, streaming ones gathered here. */
  function takeHere(tasks: Task[]) {
    for (const task of tasks) {
      if (task.bytes) task.resolve(parseInline(task.bytes, task.format));
      else task.taken!(null);
    }
  }

  function startThread(): Worker | null {
    try {
      const worker = new Worker(threadSource, {
        eval: true,
        workerData: { fastXmlParser: createRequire(import.meta.url).resolve('fast-xml-parser'), xmlOptions: xmlParserOptions, heldFrom: HELD_FILE_CHARS, markKey },
      });
      worker.unref(); // an idle parser never keeps the process alive
      worker.on('message', ({ id, result }: { id: number; result: ParsedText }) => {
        const task = busy.get(worker);
        if (!task || task.id !== id) return;
        task.resolve(result);
        release(worker, task);
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
        if (unavailable && started === 0) takeHere(waiting.splice(0));
        return;
      }
      const task = waiting.shift()!;
      clearTimeout(stopping.get(worker));
      stopping.delete(worker);
      busy.set(worker, task);
      const { bytes } = task;
      if (!bytes) {
        worker.postMessage({ id: task.id, length: task.length, format: task.format, field: task.field });
        task.taken!(worker);
        continue;
      }
      worker.postMessage({ id: task.id, bytes, format: task.format, field: task.field }, movable(bytes));
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
    /**
     * A large body of at most `length` bytes, parsed as it arrives: its chunks go to a thread one by one and are
     * gathered there, so the main thread never holds (nor first touches) the whole body. `ready` is kept once a
     * thread has taken it: read the request only then (until then the body waits in its connection, not here).
     * Where no thread can take it, it is gathered and parsed here as before.
     */
    receive(length: number, format: TextFormat, file?: string[]): BodyStream {
      let worker: Worker | null | undefined; // undefined: waiting for a thread; null: gathered here
      let gathered: Buffer | null = null;
      let size = 0;
      let done = false;
      let markReady!: () => void;
      const ready = new Promise<void>((resolve) => (markReady = resolve));
      let task!: Task;
      const result = new Promise<ParsedText>((resolve, reject) => {
        task = { id: nextId++, length, format, field: file, resolve, reject, taken(w) {
          worker = w;
          if (!w) gathered = Buffer.allocUnsafe(length);
          markReady();
        } };
      });
      result.catch(() => {}); // a dropped body's thread may still be lost: nobody waits for that answer
      if (unavailable || closed) takeHere([task]);
      else {
        waiting.push(task);
        pump();
      }
      return {
        ready,
        write(chunk: Uint8Array) {
          if (done) return;
          if (worker) worker.postMessage({ id: task.id, chunk }, movable(chunk));
          else if (gathered) size += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).copy(gathered, size);
        },
        finish() {
          if (done) return result;
          done = true;
          if (worker) worker.postMessage({ id: task.id, end: true });
          else if (gathered) task.resolve(parseInline(gathered.subarray(0, size), format));
          return result;
        },
        cancel() {
          if (done) return;
          done = true;
          gathered = null;
          if (worker) {
            worker.postMessage({ id: task.id, cancel: true });
            release(worker, task);
          } else if (worker === undefined && waiting.includes(task)) waiting.splice(waiting.indexOf(task), 1);
        },
      };
    },
    /** Threads started and not yet stopped (idle or parsing). */
    get threads() {
      return started;
    },
    /** Stops the threads; bodies still waiting are parsed inline. */
    async close(): Promise<void> {
      closed = true;
      for (const timer of stopping.values()) clearTimeout(timer);
      takeHere(waiting.splice(0));
      await Promise.all([...idle, ...busy.keys()].map((worker) => worker.terminate()));
    },
  };
}

export type BodyParser = ReturnType<typeof createBodyParser>;

/** A body parsed as it arrives (BodyParser.receive). */
export interface BodyStream {
  /** Kept once a thread has taken the body (or it is gathered here): its chunks may be written from then. */
  ready: Promise<void>;
  /** The next chunk, in order (its memory may move to the thread: read nothing of it after); the caller keeps to the length it gave. */
  write(chunk: Uint8Array): void;
  /** The body is complete: its parse. */
  finish(): Promise<ParsedText>;
  /** The body will not complete (too large, the connection lost): its thread drops it and takes the next. */
  cancel(): void;
}
