import type BetterSqlite3 from 'better-sqlite3';
import type { ErrorBody } from '../../../shared/errors';
import { ErrorCode } from '../../../shared/errors';
import type { ImportProgressEvent } from '../../../shared/contract/import';
import type {
  ImportStatus, UploadFailedItem, UploadRequest, UploadResultItem, UploadSettings, UploadState,
} from '../../../shared/schemas/upload';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { AppError, notFound, validationError } from '../errors';
import type { EventBus } from '../events';
import { hasTariffs, servicesOf } from '../lists/tariffs-repository';
import type { Logger } from '../logger';
import { checkOrder } from '../orders/order-rules';
import { createReferenceData, type ReferenceData } from '../orders/reference-data';
import type { Outbox } from '../outbox/outbox';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';
import { cellText, type SheetRow } from './cells';
import { columnLetters, parseRange } from './columns';
import { downloadFile, type FetchLike } from './download';
import type { RowMark } from './errors-file';
import { defaultLimits, FileProblem, type ImportLimits, type WorkbookInfo } from './file-check';
import { detectHeaderRow, headerCells, suggestMapping } from './header-suggest';
import { createDraftImportWriter } from '../drafts/draft-import';
import { createOrderWriter, prepareOrder, type FailedRowRecord, type PreparedOrder, type WriteItem } from './order-writer';
import { createOrderMapper, type OrderCandidate, type RowFieldError } from './row-mapper';
import { compileSettings, type CompiledSettings, type ServicesLookup } from './settings';
import { createWorkerPool, ImportCanceled } from './worker-client';
import type { ReadSummary } from './sheet-reader';

/**
 * Spreadsheet imports: POST /orders/upload and the desktop wizard's commands.
 *
 * A run has two halves. First the whole file is read (in a worker thread) and every order built and
 * checked with the rules of POST /orders — while the worker parses, the main thread maps the rows it
 * has already sent. Only when the file has been read to the end are orders written, in batched
 * transactions, yielding to the event loop between batches. So a file that cannot be read (damaged,
 * too large, merged cells in the data, …) creates nothing; a readable file creates its valid orders
 * and reports the others row by row.
 */

export interface ImportOptions extends ImportLimits {
  downloadTimeoutMs: number;
  /** A whole read (or errors file) in the worker. */
  readTimeoutMs: number;
  /** Old-generation heap of the worker. */
  workerHeapMb: number;
  /** Sync mode: how long to wait for the delivery services to give their numbers… */
  registrationWaitMs: number;
  /** …for uploads of at most this many orders; larger ones answer once their orders are stored. */
  registrationWaitMaxOrders: number;
  /** The create jobs of an import's orders wait while it writes (released at its end; at most this long). */
  jobHoldMs: number;
  /** Most orders per write transaction. */
  batchSize: number;
  /** A write transaction stops taking orders after this long (ms): the main thread is never held long. */
  writeSliceMs: number;
  /** Readers at once; more imports wait their turn. */
  maxConcurrentReads: number;
  /** Finished imports are forgotten after this many days; their files after sourceRetentionDays. */
  retentionDays: number;
  sourceRetentionDays: number;
  /** Worker entry override (see worker-client.ts). */
  workerEntry?: URL;
}

export const defaultImportOptions: ImportOptions = {
  ...defaultLimits,
  downloadTimeoutMs: 30_000,
  readTimeoutMs: 5 * 60_000,
  workerHeapMb: 256,
  registrationWaitMs: 10_000,
  registrationWaitMaxOrders: 500,
  jobHoldMs: 5 * 60_000,
  batchSize: 1000,
  writeSliceMs: 15,
  maxConcurrentReads: 2,
  retentionDays: 30,
  sourceRetentionDays: 7,
};

export interface ImportServiceDeps {
  db: Db;
  sqlite: BetterSqlite3.Database;
  clock: Clock;
  log: Logger;
  events: EventBus;
  providers: ProviderRegistry;
  outbox: Outbox;
  /** The reference data the orders service checks orders against (pass the same instance). */
  reference?: ReferenceData;
  /** Additional services of a delivery service, for extraParams columns; default: the reference lists. */
  services?: ServicesLookup;
  fetch?: FetchLike;
  options?: Partial<ImportOptions>;
}

const errorsTitle = 'Ошибки импорта';
const day = 86_400_000;

/** The body of a refused file. */
export const fileProblemBody = (problem: FileProblem): ErrorBody => ({
  code: ErrorCode.general,
  message: 'Bad file',
  description: problem.message,
  errors: [{ field: problem.kind === 'download' ? 'file.url' : 'file', message: problem.message }],
});

interface Entry {
  seq: number;
  row: number;
  lastRow: number;
  clientNumber: string;
  failure?: StoredFailure;
  orderId?: number;
  created?: number;
  /** The draft it became (an import into drafts). */
  draftId?: string;
}

/** What import_rows.error holds: the result item's fields, and each error's sheet row. */
interface StoredFailure {
  code: string;
  message: string;
  description: string;
  moreInfo: string;
  errors: RowFieldError[];
}

interface Job {
  ctx: CallContext;
  importId: number;
  bytes: Buffer;
  compiled: CompiledSettings;
  dryRun: boolean;
  /** Keep the orders as drafts to check instead of creating them. */
  asDrafts?: boolean;
  errorsToFile: boolean;
  waitForRegistration: boolean;
  signal: AbortSignal;
}

interface Running {
  ctx: CallContext;
  controller: AbortController;
  done: Promise<void>;
}

/** Rows mapped (and their orders checked) between two turns of the event loop. */
const mapSlice = 50; // ≈ 2–5 ms of work on an idle machine: room for the CPU contention of a busy one under the 100 ms goal
/**
 * Rows per batch from the reading worker, and batches it may send ahead of the mapping (flow control): at
 * most 10,000 rows wait on the main thread, however long the sheet. (A window of 4 batches kept rows from
 * outliving the young generation — a third less collecting on the benchmark's file — but its round trips
 * cost more wall-clock time than that saved on this 2-core machine; 10,000 rows measured the same as none.)
 */
const readBatchRows = 250;
const readWindow = 40;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function rowsText(sheetName: string, row: number, lastRow: number) {
  return `Sheet «${sheetName}», ${lastRow > row ? `rows ${row}–${lastRow}` : `row ${row}`}`;
}

function failureOf(errors: RowFieldError[], where: string): StoredFailure {
  return {
    code: ErrorCode.validation,
    message: 'Validation error',
    description: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    moreInfo: where,
    errors,
  };
}

/** Why an order of a canceled import was not created. */
const canceledFailure = (sheetName: string, e: { row: number; lastRow: number }): StoredFailure => ({
  code: ErrorCode.general,
  message: 'Not imported',
  description: 'The import was canceled before this order was created',
  moreInfo: rowsText(sheetName, e.row, e.lastRow),
  errors: [],
});

const toResultFailure = (clientNumber: string, row: number, f: StoredFailure): UploadFailedItem => ({
  clientNumber,
  row,
  code: f.code,
  message: f.message,
  description: f.description,
  moreInfo: f.moreInfo,
  errors: f.errors.map(({ field, message }) => ({ field, message })),
});

export function createImportService(deps: ImportServiceDeps) {
  const { db, sqlite, clock, log, events, providers, outbox } = deps;
  const options: ImportOptions = { ...defaultImportOptions, ...deps.options };
  const reference = deps.reference ?? createReferenceData(db);
  const fetchFile: FetchLike = deps.fetch ?? ((input, init) => fetch(input, init));
  const writer = createOrderWriter({ db, sqlite, events, outbox });
  const draftWriter = createDraftImportWriter({ db, events });
  const running = new Map<number, Running>();
  let readers = 0;
  const readerQueue: (() => void)[] = [];

  /** The extraParams names a delivery service takes: its list, or undefined when the app has no reference data for it. */
  const lookupServices: ServicesLookup =
    deps.services ??
    (async (providerKey) => {
      const list = await servicesOf(db, providerKey);
      if (list.length) return list;
      return (await hasTariffs(db, providerKey)) ? [] : undefined;
    });

  /**
   * The settings checked and compiled, for the interface's upload and the wizard alike. The upload's
   * providerKey (required by the interface) must name a service before anything is read; a row's own
   * provider column may still name another service (the row keeps its own).
   */
  async function compile(settings: UploadSettings): Promise<CompiledSettings> {
    if (!providers.get(settings.providerKey)) throw validationError([{ field: 'providerKey', message: `unknown delivery service ${settings.providerKey}` }]);
    return compileSettings(settings, lookupServices);
  }

  const workers = createWorkerPool({ timeoutMs: options.readTimeoutMs, maxHeapMb: options.workerHeapMb, entry: options.workerEntry });

  async function withReaderSlot<T>(work: () => Promise<T>): Promise<T> {
    if (readers >= options.maxConcurrentReads) await new Promise<void>((resolve) => readerQueue.push(resolve));
    readers++;
    try {
      return await work();
    } finally {
      readers--;
      readerQueue.shift()?.();
    }
  }

  // ---- imports table ----------------------------------------------------------------------------

  async function prune() {
    const now = clock.now();
    await db.deleteFrom('import_rows').where('import_id', 'in', (eb) => eb.selectFrom('imports').select('id').where('updated_at', '<', now - options.retentionDays * day)).execute();
    await db.deleteFrom('imports').where('updated_at', '<', now - options.retentionDays * day).execute();
    await db
      .updateTable('imports')
      .set({ source: null, errors_file: null })
      .where('updated_at', '<', now - options.sourceRetentionDays * day)
      .where((eb) => eb.or([eb('source', 'is not', null), eb('errors_file', 'is not', null)]))
      .execute();
  }

  async function createImport(ctx: CallContext, fields: { origin: 'api' | 'desktop'; mode: 'sync' | 'async'; status: ImportStatus; fileName?: string; bytes: Buffer; settings?: UploadSettings; errorsToFile?: boolean }) {
    const now = clock.now();
    const row = await db
      .insertInto('imports')
      .values({
        company_id: ctx.companyId,
        origin: fields.origin,
        mode: fields.mode,
        status: fields.status,
        file_name: fields.fileName ?? null,
        file_size: fields.bytes.length,
        source: fields.bytes,
        settings: fields.settings ? JSON.stringify(fields.settings) : null,
        errors_to_file: fields.errorsToFile ? 1 : 0,
        total: 0,
        done: 0,
        created: 0,
        failed: 0,
        error: null,
        errors_file: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function loadImport(ctx: CallContext, importId: number) {
    const row = await db.selectFrom('imports').selectAll().where('id', '=', importId).where('company_id', '=', ctx.companyId).executeTakeFirst();
    if (!row) throw notFound(`Upload ${importId} was not found`);
    return row;
  }

  async function update(importId: number, set: Partial<{ status: ImportStatus; total: number; done: number; created: number; failed: number; error: string | null; errors_file: Buffer | null; finished_at: number | null; settings: string }>) {
    await db.updateTable('imports').set({ ...set, updated_at: clock.now() }).where('id', '=', importId).execute();
  }

  // ---- progress -----------------------------------------------------------------------------------

  function progressReporter(ctx: CallContext, importId: number) {
    let last = 0;
    return (status: ImportStatus, done: number, total: number, force = false) => {
      const now = Date.now();
      if (!force && now - last < 100) return;
      last = now;
      const event: ImportProgressEvent = { type: 'import.progress', importId, status, done, total };
      events.publish({ ...event, companyId: ctx.companyId });
    };
  }

  // ---- the pipeline -------------------------------------------------------------------------------

  /** Reference lookups of one import, remembered: 10,000 orders of one tariff ask for it once. */
  function rememberedReference(): ReferenceData {
    const cache = new Map<string, Promise<unknown>>();
    const remember = <T>(key: string, load: () => Promise<T>): Promise<T> => {
      let hit = cache.get(key) as Promise<T> | undefined;
      if (!hit) cache.set(key, (hit = load()));
      return hit;
    };
    return {
      tariff: (providerKey, id) => remember(`t|${providerKey}|${id}`, () => reference.tariff(providerKey, id)),
      point: (providerKey, id) => remember(`p|${providerKey}|${id}`, () => reference.point(providerKey, id)),
      services: (providerKey) => remember(`s|${providerKey}`, () => reference.services(providerKey)),
    };
  }

  /**
   * Reads the file and builds and checks every order; nothing is written. Throws FileProblem.
   * The worker's rows are queued and mapped in slices, each followed by a turn of the event loop, so
   * the main thread never works for long at a stretch however fast the rows arrive.
   */
  async function readOrders(job: Job, report: ReturnType<typeof progressReporter>) {
    const { compiled } = job;
    const mapper = createOrderMapper(compiled);
    const remembered = rememberedReference();
    const candidates: OrderCandidate[] = [];
    const prepared = new Map<number, PreparedOrder>();
    let info: WorkbookInfo | undefined;
    let summary: ReadSummary | undefined;
    let rowsRead = 0;
    let estimate = 0;
    const queue: SheetRow[] = [];
    let queued = 0;
    let working: Promise<void> | null = null;
    let failure: unknown;

    const check = async (c: OrderCandidate) => {
      const payload = c.payload!;
      const errors = await checkOrder(payload, providers.get(payload.order.providerKey), remembered);
      if (errors.length) c.errors = errors.map((e) => c.locate!(e.field, e.message));
      else prepared.set(c.seq, prepareOrder(payload)); // the row as it will be written; the payload object can go
      c.payload = undefined;
      c.locate = undefined;
    };
    const accept = async (list: OrderCandidate[]) => {
      const toCheck: OrderCandidate[] = [];
      for (const c of list) {
        candidates.push(c);
        if (c.payload) toCheck.push(c);
        else c.locate = undefined;
      }
      await Promise.all(toCheck.map(check));
    };
    // Flow control: each batch is acknowledged once mapped, so the worker reads only readWindow batches ahead.
    let received = 0;
    let taken = 0;
    const acks: { at: number; ack: () => void }[] = [];
    const ackTaken = () => {
      while (acks.length && acks[0].at <= taken) acks.shift()!.ack();
    };
    const work = async () => {
      try {
        while (queued < queue.length) {
          const slice = queue.slice(queued, queued + mapSlice);
          queued += slice.length;
          const built: OrderCandidate[] = [];
          for (const row of slice) built.push(...mapper.push(row));
          await accept(built);
          taken += slice.length;
          ackTaken();
          if (queued === queue.length) {
            queue.length = 0;
            queued = 0;
          }
          await yieldToEventLoop();
        }
      } catch (error) {
        failure = error;
        taken = Number.POSITIVE_INFINITY; // the read goes on to its end (and the failure is thrown then): never hold the worker
        ackTaken();
      } finally {
        working = null;
      }
    };

    await withReaderSlot(() =>
      workers.run(
        {
          kind: 'read',
          bytes: job.bytes,
          limits: options,
          read: { fromRow: compiled.rowStart, dataFrom: compiled.rowStart, toRow: compiled.rowEnd, batchRows: readBatchRows },
          window: readWindow,
        },
        (m, reply) => {
          if (m.type === 'workbook') info = m.info;
          else if (m.type === 'dimension') {
            const range = parseRange(m.ref);
            if (range) estimate = Math.max(0, Math.min(range.bottom, compiled.rowEnd ?? range.bottom) - compiled.rowStart + 1);
          } else if (m.type === 'rows') {
            for (const row of m.rows) queue.push(row);
            rowsRead += m.rows.length;
            received += m.rows.length;
            acks.push({ at: received, ack: () => reply({ type: 'ack' }) });
            ackTaken();
            working ??= work();
            report('reading', rowsRead, Math.max(estimate, rowsRead));
          } else if (m.type === 'done') summary = m.summary;
        },
        job.signal,
      ),
    );
    while (working) await working;
    if (failure) throw failure;
    await accept(mapper.finish());
    const sheetName = info?.sheetName ?? '';

    // Merged cells hold their value in the first cell only: in the data, that silently empties the others.
    const lastRow = compiled.rowEnd ?? summary?.lastRow ?? compiled.rowStart;
    const mapped = new Set(compiled.mappedColumns);
    const bad = (summary?.merges ?? [])
      .map((ref) => ({ ref, range: parseRange(ref) }))
      .filter(({ range }) => range && range.bottom >= compiled.rowStart && range.top <= lastRow && [...mapped].some((c) => c >= range.left && c <= range.right));
    if (bad.length) {
      const list = bad.slice(0, 5).map((b) => b.ref).join(', ');
      throw new FileProblem(
        'merged-cells',
        `Merged cells in the table (${list}${bad.length > 5 ? `, and ${bad.length - 5} more` : ''}): a merged cell keeps its value only in its first cell. ` +
          'Unmerge them (Home → Merge & Center) and fill in every row, then upload the file again.',
      );
    }
    if (candidates.length === 0) {
      throw new FileProblem('no-rows', `No orders found in the sheet «${sheetName}» from row ${compiled.rowStart}${compiled.rowEnd ? ` to row ${compiled.rowEnd}` : ''}: the mapped columns are empty there.`);
    }
    return { candidates, prepared, sheetName };
  }

  const duplicateErrors = (c: { clientNumber: string; row: number }, existing: number): RowFieldError[] => [
    {
      field: 'order.clientNumber',
      message: `an order with clientNumber ${c.clientNumber} already exists (orderId ${existing}); this row was not imported again. clientNumber must be unique within the company`,
      row: c.row,
    },
  ];

  /** Reads, checks and (unless dry) writes; records the outcome of every order. Throws FileProblem / ImportCanceled. */
  async function execute(job: Job): Promise<{ entries: Entry[]; sheetName: string; errorsFile?: Buffer }> {
    const report = progressReporter(job.ctx, job.importId);
    if (!job.dryRun) await update(job.importId, { status: 'reading' });
    report('reading', 0, 0, true);
    const { candidates, prepared, sheetName } = await readOrders(job, report);
    const entries: Entry[] = candidates.map((c) => ({
      seq: c.seq,
      row: c.row,
      lastRow: c.rows[c.rows.length - 1],
      clientNumber: c.clientNumber,
      failure: prepared.has(c.seq) ? undefined : failureOf(c.errors, rowsText(sheetName, c.row, c.rows[c.rows.length - 1])),
    }));
    candidates.length = 0;

    if (job.dryRun) {
      const valid = entries.filter((e) => prepared.has(e.seq));
      const live = await writer.liveOrderIds(job.ctx, valid.map((e) => prepared.get(e.seq)!.clientNumber));
      for (const e of valid) {
        const existing = live.get(prepared.get(e.seq)!.clientNumber);
        if (existing !== undefined) e.failure = failureOf(duplicateErrors(e, existing), rowsText(sheetName, e.row, e.lastRow));
      }
      return { entries, sheetName };
    }

    if (job.signal.aborted) throw new ImportCanceled();
    if (job.asDrafts) {
      const failed = await writeDrafts(job, entries, prepared, sheetName, report);
      const errorsFile = job.errorsToFile && failed > 0 ? await makeErrorsFile(job.importId, job.bytes, job.compiled.rowStart, entries) : undefined;
      return { entries, sheetName, errorsFile };
    }
    const total = entries.length;
    let created = 0;
    let failed = 0;
    await update(job.importId, { status: 'creating', total, done: 0 });
    report('creating', 0, total, true);
    let cursor = 0;
    let firstId = Number.POSITIVE_INFINITY;
    let lastId = 0;
    const release = async () => {
      if (lastId > 0) await writer.releaseJobs(firstId, lastId, clock.now());
    };
    try {
      while (cursor < total) {
        if (job.signal.aborted) {
          const rest = entries.slice(cursor);
          const records: FailedRowRecord[] = rest.map((e) => {
            e.failure = canceledFailure(sheetName, e);
            return { seq: e.seq, row: e.row, lastRow: e.lastRow, clientNumber: e.clientNumber, error: JSON.stringify(e.failure) };
          });
          await writer.recordFailures(job.importId, records);
          failed += rest.length;
          await update(job.importId, { done: total, created, failed });
          throw new ImportCanceled();
        }
        const items: WriteItem[] = entries.slice(cursor, cursor + options.batchSize).map((e) => {
          const order = prepared.get(e.seq);
          return order
            ? { seq: e.seq, row: e.row, lastRow: e.lastRow, order }
            : { seq: e.seq, row: e.row, lastRow: e.lastRow, clientNumber: e.clientNumber, error: JSON.stringify(e.failure) };
        });
        const { outcomes, consumed } = await writer.writeSlice(
          job.ctx,
          job.importId,
          items,
          clock.now(),
          (o, existing) => {
            const e = entries[o.seq];
            e.failure = failureOf(duplicateErrors(e, existing), rowsText(sheetName, e.row, e.lastRow));
            return JSON.stringify(e.failure);
          },
          options.writeSliceMs,
          options.jobHoldMs,
        );
        for (const o of outcomes) {
          if (!('orderId' in o)) continue;
          created++;
          firstId = Math.min(firstId, o.orderId);
          lastId = Math.max(lastId, o.orderId);
          entries[o.seq].orderId = o.orderId;
          entries[o.seq].created = o.created;
        }
        for (let k = cursor; k < cursor + consumed; k++) prepared.delete(k); // written: let the memory go
        cursor += consumed;
        failed = cursor - created;
        await update(job.importId, { done: cursor, created, failed });
        report('creating', cursor, total, true); // once per transaction
        await yieldToEventLoop();
      }
    } finally {
      await release(); // whatever was written goes to the delivery services now, canceled or not
    }

    if (job.waitForRegistration && created > 0 && created <= options.registrationWaitMaxOrders && options.registrationWaitMs > 0) {
      await update(job.importId, { status: 'registering' });
      report('registering', total, total, true);
      // the delivery services' numbers: as many as they give within the wait; the rest come later
      await Promise.race([outbox.drain().catch((error) => log.warn(`upload ${job.importId}: sending to the delivery services failed: ${(error as Error).message}`)), delay(options.registrationWaitMs)]);
    }

    const errorsFile = job.errorsToFile && failed > 0 ? await makeErrorsFile(job.importId, job.bytes, job.compiled.rowStart, entries) : undefined;
    return { entries, sheetName, errorsFile };
  }

  /**
   * The "as drafts" target: valid orders become drafts (a clientNumber already live as an order or a draft is
   * reported as a duplicate), in batches, each recorded in import_rows with its drafts. Returns how many failed.
   */
  async function writeDrafts(job: Job, entries: Entry[], prepared: Map<number, PreparedOrder>, sheetName: string, report: ReturnType<typeof progressReporter>) {
    const valid = entries.filter((e) => prepared.has(e.seq));
    const numbers = valid.map((e) => prepared.get(e.seq)!.clientNumber);
    const [live, drafted] = await Promise.all([writer.liveOrderIds(job.ctx, numbers), draftWriter.existing(job.ctx, numbers)]);
    for (const e of valid) {
      const n = prepared.get(e.seq)!.clientNumber;
      const orderId = live.get(n);
      const draftId = drafted.get(n);
      let errors: RowFieldError[] | undefined;
      if (orderId !== undefined) errors = duplicateErrors(e, orderId);
      else if (draftId !== undefined) errors = [{ field: 'order.clientNumber', message: `a draft with clientNumber ${n} already exists (draft ${draftId}); this row was not imported again`, row: e.row }];
      if (errors) {
        e.failure = failureOf(errors, rowsText(sheetName, e.row, e.lastRow));
        prepared.delete(e.seq);
      }
    }
    const total = entries.length;
    await update(job.importId, { status: 'creating', total, done: 0 });
    report('creating', 0, total, true);
    let created = 0;
    for (let cursor = 0; cursor < total; cursor += options.batchSize) {
      const batch = entries.slice(cursor, cursor + options.batchSize);
      if (job.signal.aborted) for (const e of entries.slice(cursor)) if (!e.failure) e.failure = canceledFailure(sheetName, e);
      const made = await draftWriter.write(
        job.ctx,
        job.importId,
        (job.signal.aborted ? entries.slice(cursor) : batch).map((e) =>
          e.failure ? { seq: e.seq, row: e.row, lastRow: e.lastRow, clientNumber: e.clientNumber, error: JSON.stringify(e.failure) } : { seq: e.seq, row: e.row, lastRow: e.lastRow, clientNumber: e.clientNumber, json: prepared.get(e.seq)!.json },
        ),
        clock.now(),
      );
      for (const [seq, draftId] of made) entries[seq].draftId = draftId;
      created += made.size;
      if (job.signal.aborted) {
        await update(job.importId, { done: total, created, failed: total - created });
        throw new ImportCanceled();
      }
      const done = Math.min(total, cursor + batch.length);
      await update(job.importId, { done, created, failed: done - created });
      report('creating', done, total, true);
      await yieldToEventLoop();
    }
    return total - created;
  }

  async function makeErrorsFile(importId: number, bytes: Buffer, rowStart: number, entries: Entry[]): Promise<Buffer> {
    const marks: RowMark[] = [];
    for (const e of entries) {
      if (!e.failure) continue;
      const byRow = new Map<number, string[]>();
      for (const err of e.failure.errors) {
        const list = byRow.get(err.row) ?? [];
        list.push(`${err.field}: ${err.message}`);
        byRow.set(err.row, list);
      }
      if (e.failure.errors.length === 0) byRow.set(e.row, [e.failure.description]);
      for (let r = e.row; r <= e.lastRow; r++) marks.push({ row: r, messages: byRow.get(r) ?? [] });
    }
    let file: Buffer | undefined;
    await withReaderSlot(() =>
      workers.run(
        { kind: 'errors-file', bytes, limits: options, marks, headerRow: rowStart > 1 ? rowStart - 1 : undefined, title: errorsTitle },
        (m) => {
          if (m.type === 'file') file = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
        },
      ),
    );
    await update(importId, { errors_file: file! });
    return file!;
  }

  /** Runs a job to its end and records it; failures of the whole file end up in the import's row. */
  async function finish(job: Job): Promise<Awaited<ReturnType<typeof execute>>> {
    const report = progressReporter(job.ctx, job.importId);
    try {
      const outcome = await execute(job);
      const { entries } = outcome;
      const failed = entries.filter((e) => e.failure).length;
      await update(job.importId, { status: 'done', total: entries.length, done: entries.length, created: entries.length - failed, failed, finished_at: clock.now() });
      report('done', entries.length, entries.length, true);
      return outcome;
    } catch (error) {
      const status: ImportStatus = error instanceof ImportCanceled ? 'canceled' : 'failed';
      let body: ErrorBody | null = null;
      if (error instanceof FileProblem) body = fileProblemBody(error);
      else if (!(error instanceof ImportCanceled)) {
        log.error(`upload ${job.importId} failed`, error);
        body = { code: ErrorCode.internal, message: 'Internal error', description: 'The import stopped because of an error on our side; orders created before it stay' };
      }
      await update(job.importId, { status, error: body ? JSON.stringify(body) : null, finished_at: clock.now() }).catch(() => {});
      report(status, 0, 0, true);
      throw error;
    }
  }

  function start(job: Omit<Job, 'signal'>): Running {
    const controller = new AbortController();
    const entry: Running = {
      ctx: job.ctx,
      controller,
      done: finish({ ...job, signal: controller.signal })
        .then(() => {}, () => {}) // the outcome is recorded in the import's row
        .finally(() => running.delete(job.importId)),
    };
    running.set(job.importId, entry);
    return entry;
  }

  // ---- results ------------------------------------------------------------------------------------

  /** The result items of an import, in file order; read in pages, a turn of the event loop between them. */
  async function resultItems(importId: number, offset = 0, limit = Number.MAX_SAFE_INTEGER): Promise<UploadResultItem[]> {
    const items: UploadResultItem[] = [];
    const page = 2000;
    for (let at = offset; items.length < limit; at += page) {
      const rows = await db
        .selectFrom('import_rows as r')
        .leftJoin('orders as o', 'o.id', 'r.order_id')
        .select(['r.row', 'r.client_number', 'r.order_id', 'r.created_at', 'r.error', 'r.draft_id', 'o.provider_number', 'o.status_key'])
        .where('r.import_id', '=', importId)
        .orderBy('r.seq')
        .limit(Math.min(page, limit - items.length))
        .offset(at)
        .execute();
      for (const r of rows) {
        if (r.order_id !== null) {
          items.push({
            clientNumber: r.client_number,
            row: r.row,
            orderId: r.order_id,
            providerNumber: r.provider_number ?? null,
            created: formatTimestamp(r.created_at ?? 0),
            status: r.status_key ?? undefined,
          });
        } else if (r.draft_id !== null) items.push({ clientNumber: r.client_number, row: r.row, draftId: r.draft_id, created: formatTimestamp(r.created_at ?? 0) });
        else items.push(toResultFailure(r.client_number, r.row, JSON.parse(r.error ?? '{}') as StoredFailure));
      }
      if (rows.length < page) break;
      await yieldToEventLoop();
    }
    return items;
  }

  async function stateOf(ctx: CallContext, importId: number, offset?: number, limit?: number): Promise<UploadState> {
    const row = await loadImport(ctx, importId);
    return {
      uploadId: row.id,
      status: row.status,
      done: row.done,
      total: row.total,
      created: row.created,
      failed: row.failed,
      resultItems: await resultItems(importId, offset, limit),
      base64: row.errors_file ? row.errors_file.toString('base64') : null,
      error: row.error ? (JSON.parse(row.error) as UploadState['error']) : null,
    };
  }

  // ---- files --------------------------------------------------------------------------------------

  function decodeBase64(text: string, field: string): Buffer {
    const clean = text.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw new AppError(400, { code: ErrorCode.validation, message: 'Validation error', description: `${field}: must be base64`, errors: [{ field, message: 'must be base64' }] });
    if ((clean.length * 3) / 4 > options.maxFileBytes + 4) {
      throw new AppError(413, fileProblemBody(new FileProblem('too-large', `The file is larger than ${Math.round(options.maxFileBytes / 1024 / 1024)} MB, the largest workbook accepted.`)));
    }
    return Buffer.from(clean, 'base64');
  }

  async function fileOf(request: UploadRequest): Promise<{ bytes: Buffer; name?: string }> {
    if (request.file.base64 !== undefined) return { bytes: decodeBase64(request.file.base64, 'file.base64') };
    return downloadFile(request.file.url!, { fetch: fetchFile, timeoutMs: options.downloadTimeoutMs, maxBytes: options.maxFileBytes });
  }

  const asAppError = (error: unknown): unknown => (error instanceof FileProblem ? new AppError(400, fileProblemBody(error)) : error);

  return {
    /**
     * POST /orders/upload. sync: reads, creates, waits (bounded) for the delivery services' numbers and
     * answers `{ resultItems, base64 }`; a file that cannot be read is a 400 and creates nothing.
     * async: answers at once with the upload's state (uploadId); GET /orders/upload/{uploadId} tells the rest.
     */
    async upload(ctx: CallContext, request: UploadRequest): Promise<{ resultItems: UploadResultItem[]; base64: string | null } | UploadState> {
      const compiled = await compile(request); // bad settings: 040002, the file is not even fetched
      await prune();
      let file: { bytes: Buffer; name?: string };
      try {
        file = await fileOf(request);
      } catch (error) {
        throw asAppError(error);
      }
      const importId = await createImport(ctx, {
        origin: 'api',
        mode: request.mode,
        status: 'queued',
        fileName: file.name,
        bytes: file.bytes,
        settings: { providerKey: request.providerKey, columnSettings: request.columnSettings, columnMap: request.columnMap, defaultData: request.defaultData },
        errorsToFile: request.errorsToFile,
      });
      const job = { ctx, importId, bytes: file.bytes, compiled, dryRun: false, errorsToFile: request.errorsToFile, waitForRegistration: request.mode === 'sync' };
      if (request.mode === 'async') {
        const answer = await stateOf(ctx, importId); // as it is now: queued
        start(job);
        return answer;
      }
      const controller = new AbortController();
      let outcome: Awaited<ReturnType<typeof execute>>;
      try {
        outcome = await finish({ ...job, signal: controller.signal });
      } catch (error) {
        throw asAppError(error);
      }
      // the answer from what the run knows; only the delivery services' numbers are read back
      const ids = outcome.entries.flatMap((e) => (e.orderId === undefined ? [] : [e.orderId]));
      const registered = ids.length ? await writer.registrations(ctx, ids.reduce((m, v) => Math.min(m, v)), ids.reduce((m, v) => Math.max(m, v))) : new Map();
      const resultItems: UploadResultItem[] = [];
      const stamps = new Map<number, string>();
      for (const e of outcome.entries) {
        if (e.orderId === undefined) resultItems.push(toResultFailure(e.clientNumber, e.row, e.failure!));
        else {
          const r = registered.get(e.orderId);
          let created = stamps.get(e.created!);
          if (created === undefined) stamps.set(e.created!, (created = formatTimestamp(e.created!)));
          resultItems.push({ clientNumber: e.clientNumber, row: e.row, orderId: e.orderId, providerNumber: r?.providerNumber ?? null, created, status: r?.status });
        }
        if (resultItems.length % 2000 === 0) await yieldToEventLoop();
      }
      return { resultItems, base64: outcome.errorsFile ? outcome.errorsFile.toString('base64') : null };
    },

    /** GET /orders/upload/{uploadId}: the upload's state and its results so far. */
    state: (ctx: CallContext, importId: number, paging: { offset?: number; limit?: number } = {}) => stateOf(ctx, importId, paging.offset, paging.limit),

    /** import.preview: stages the workbook and shows its first rows with a guessed header row and column map. */
    async preview(ctx: CallContext, input: { file: { base64: string; name?: string }; rows: number }) {
      const bytes = decodeBase64(input.file.base64, 'file.base64');
      await prune();
      let info: WorkbookInfo | undefined;
      const rows: SheetRow[] = [];
      try {
        await withReaderSlot(() =>
          workers.run(
            { kind: 'read', bytes, limits: options, read: { fromRow: 1, dataFrom: 1, stopAfterRows: input.rows } },
            (m) => {
              if (m.type === 'workbook') info = m.info;
              else if (m.type === 'rows') rows.push(...m.rows);
            },
          ),
        );
      } catch (error) {
        throw asAppError(error);
      }
      const importId = await createImport(ctx, { origin: 'desktop', mode: 'async', status: 'staged', fileName: input.file.name, bytes });
      const headerRow = detectHeaderRow(rows);
      const headers = headerCells(rows.find((r) => r.row === headerRow));
      return {
        importId,
        fileName: input.file.name ?? null,
        sheetName: info!.sheetName,
        sheetNames: info!.sheetNames,
        headerRow,
        rowStart: headerRow + 1,
        headers,
        rows: rows.map((r) => ({
          row: r.row,
          cells: Object.fromEntries(r.cells.flatMap((c, i) => (cellText(c) === '' ? [] : [[columnLetters(i + 1), cellText(c)]]))),
        })),
        suggested: suggestMapping(headers),
      };
    },

    suggestMapping: (headers: { column: string; title: string }[]) => suggestMapping(headers),

    /** import.dryRun: every order of the staged file checked (duplicates in the database included); nothing is created. */
    async dryRun(ctx: CallContext, input: { importId: number; settings: UploadSettings }) {
      const row = await loadImport(ctx, input.importId);
      if (!row.source) throw notFound(`The file of import ${input.importId} is no longer kept; choose it again`);
      const compiled = await compile(input.settings);
      try {
        const controller = new AbortController();
        const { entries } = await execute({ ctx, importId: row.id, bytes: row.source, compiled, dryRun: true, errorsToFile: false, waitForRegistration: false, signal: controller.signal });
        const failedEntries = entries.filter((e) => e.failure);
        return {
          importId: row.id,
          orders: entries.length,
          valid: entries.length - failedEntries.length,
          failed: failedEntries.length,
          resultItems: failedEntries.map((e) => toResultFailure(e.clientNumber, e.row, e.failure!)),
        };
      } catch (error) {
        throw asAppError(error);
      }
    },

    /**
     * import.run: creates the orders of a staged file in the background. A file that has already run
     * runs again as a new import (a new uploadId), so every run keeps its own results.
     */
    async run(ctx: CallContext, input: { importId: number; settings: UploadSettings; errorsToFile: boolean; target?: 'orders' | 'drafts' }): Promise<UploadState> {
      const row = await loadImport(ctx, input.importId);
      if (!row.source) throw notFound(`The file of import ${input.importId} is no longer kept; choose it again`);
      const compiled = await compile(input.settings);
      // Takes the staged file only if it is still staged: of two runs asked at once (a double click), one
      // takes it and the other runs as a new import, never the same import twice.
      const taken =
        row.status === 'staged' &&
        (await db
          .updateTable('imports')
          .set({ status: 'queued', settings: JSON.stringify(input.settings), errors_to_file: input.errorsToFile ? 1 : 0, updated_at: clock.now() })
          .where('id', '=', row.id)
          .where('status', '=', 'staged')
          .executeTakeFirst()).numUpdatedRows > 0n;
      const importId = taken
        ? row.id
        : await createImport(ctx, { origin: 'desktop', mode: 'async', status: 'queued', fileName: row.file_name ?? undefined, bytes: row.source, settings: input.settings, errorsToFile: input.errorsToFile });
      const answer = await stateOf(ctx, importId, 0, 0);
      start({ ctx, importId, bytes: row.source, compiled, dryRun: false, errorsToFile: input.errorsToFile, waitForRegistration: false, asDrafts: input.target === 'drafts' });
      return answer;
    },

    /** import.cancel: stops a running import; orders created before it stay. */
    async cancel(ctx: CallContext, importId: number): Promise<UploadState> {
      await loadImport(ctx, importId);
      const job = running.get(importId);
      if (job && job.ctx.companyId === ctx.companyId) {
        job.controller.abort();
        await job.done;
      }
      return stateOf(ctx, importId, 0, 0);
    },

    /** import.errorsFile: the workbook with its failed rows marked (made now if the run did not make it). */
    async errorsFile(ctx: CallContext, importId: number): Promise<{ fileName: string; base64: string | null }> {
      const row = await loadImport(ctx, importId);
      const fileName = `${(row.file_name ?? 'orders').replace(/\.xlsx$/i, '')} — ошибки.xlsx`;
      if (row.errors_file) return { fileName, base64: row.errors_file.toString('base64') };
      if (!row.source) return { fileName, base64: null };
      const failures = await db.selectFrom('import_rows').select(['seq', 'row', 'last_row', 'client_number', 'error']).where('import_id', '=', importId).where('error', 'is not', null).orderBy('seq').execute();
      if (failures.length === 0) return { fileName, base64: null };
      const settings = row.settings ? (JSON.parse(row.settings) as UploadSettings) : undefined;
      const entries: Entry[] = failures.map((f) => ({ seq: f.seq, row: f.row, lastRow: f.last_row, clientNumber: f.client_number, failure: JSON.parse(f.error!) as StoredFailure }));
      try {
        const file = await makeErrorsFile(importId, row.source, settings?.columnSettings.rowStart ?? 2, entries);
        return { fileName, base64: file.toString('base64') };
      } catch (error) {
        throw asAppError(error);
      }
    },

    /** Keeps a reading worker started ahead (exceljs loaded), so an import does not wait for one. */
    prewarm: () => workers.prewarm(),

    /** Waits for the imports under way (app shutdown); with cancel, stops them first. */
    async stop(cancel = true): Promise<void> {
      const jobs = [...running.values()];
      if (cancel) for (const j of jobs) j.controller.abort();
      await Promise.all(jobs.map((j) => j.done));
      workers.close();
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
