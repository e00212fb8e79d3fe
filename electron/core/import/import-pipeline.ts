import type BetterSqlite3 from 'better-sqlite3';
import type { CallContext } from '../companies/company-service';
import type { Clock } from '../clock';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import { createDraftImportWriter } from '../drafts/draft-import';
import type { ReferenceData } from '../orders/reference-data';
import type { Outbox } from '../outbox/outbox';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';
import type { RowMark } from './errors-file';
import { checkErrorsFileSize } from './file-check';
import { canceledFailure, duplicateErrors, failureOf, rowsText, type Entry } from './import-failures';
import type { ImportOptions } from './import-options';
import { progressReporter, type ReportProgress } from './import-progress';
import type { ImportReaders } from './import-readers';
import { yieldToEventLoop, type ImportStore } from './import-store';
import { createOrderWriter, type FailedRowRecord, type PreparedOrder, type WriteItem } from './order-writer';
import type { RowFieldError } from './row-mapper';
import type { CompiledSettings } from './settings';
import { createOrderReading, type ReadRequest } from './read-orders';
import { ImportCanceled } from './worker-client';

/**
 * The pipeline of one import run. It has two halves. First the whole file is read (in a worker thread)
 * and every order built and checked with the rules of POST /orders — while the worker parses, the main
 * thread maps the rows it has already sent. Only when the file has been read to the end are orders
 * written, in batched transactions, yielding to the event loop between batches. So a file that cannot
 * be read (damaged, too large, merged cells in the data, …) creates nothing; a readable file creates its
 * valid orders and reports the others row by row.
 */

export interface Job {
  ctx: CallContext;
  importId: number;
  bytes: Buffer;
  compiled: CompiledSettings;
  dryRun: boolean;
  /** Keep the orders as drafts to check instead of creating them. */
  asDrafts?: boolean;
  /** What the delivery service will refuse, checked with the rules (the wizard's runs): see ReadRequest. */
  reach?: ReadRequest['reach'];
  errorsToFile: boolean;
  waitForRegistration: boolean;
  signal: AbortSignal;
  /**
   * A run taken up again after a crash: its first `resumeAfter` orders are recorded already (each write
   * transaction records its orders in import_rows, in file order), so writing goes on from there.
   */
  resumeAfter?: number;
}

export interface RunOutcome {
  entries: Entry[];
  sheetName: string;
  errorsFile?: Buffer;
}

/** The parts of the app an import works with. */
export interface ImportAppParts {
  db: Db;
  sqlite: BetterSqlite3.Database;
  clock: Clock;
  log: Logger;
  events: EventBus;
  providers: ProviderRegistry;
  outbox: Outbox;
}

export interface PipelineDeps extends ImportAppParts {
  reference: ReferenceData;
  options: ImportOptions;
  store: ImportStore;
  readers: ImportReaders;
}

const errorsTitle = 'Ошибки импорта';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

export function createImportPipeline(deps: PipelineDeps) {
  const { db, sqlite, clock, log, events, providers, outbox, reference, options, store, readers } = deps;
  const writer = createOrderWriter({ db, sqlite, events, outbox });
  const draftWriter = createDraftImportWriter({ db, events });
  const update = store.update;
  const readOrders = createOrderReading({ providers, reference, options, readers });

  /** Reads, checks and (unless dry) writes; records the outcome of every order. Throws FileProblem / ImportCanceled. */
  async function execute(job: Job): Promise<RunOutcome> {
    const report = progressReporter(events, job.ctx, job.importId);
    if (!job.dryRun) await update(job.importId, { status: 'reading' });
    report('reading', 0, 0, true);
    const { candidates, prepared, sheetName, sheetXmlBytes } = await readOrders(job, report);
    if (job.errorsToFile) checkErrorsFileSize(sheetXmlBytes, options); // a sheet that hid its size: still before any order
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
      return { entries, sheetName, errorsFile: job.errorsToFile && failed > 0 ? await errorsFileOf(job, entries) : undefined };
    }
    const total = entries.length;
    let cursor = job.resumeAfter ?? 0;
    let created = cursor > 0 ? (await store.counts(job.importId)).created : 0;
    let failed = cursor - created;
    await update(job.importId, { status: 'creating', total, done: cursor, created, failed });
    report('creating', cursor, total, true);
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

    return { entries, sheetName, errorsFile: job.errorsToFile && failed > 0 ? await errorsFileOf(job, entries) : undefined };
  }

  /** The errors file of a run: its failures as the run knows them, or as recorded when it was taken up again. */
  async function errorsFileOf(job: Job, entries: Entry[]) {
    return makeErrorsFile(job.importId, job.bytes, job.compiled.rowStart, job.resumeAfter ? await store.failedEntries(job.importId) : entries);
  }

  /**
   * The "as drafts" target: valid orders become drafts (a clientNumber already live as an order or a draft is
   * reported as a duplicate), in batches, each recorded in import_rows with its drafts. Returns how many failed.
   */
  async function writeDrafts(job: Job, entries: Entry[], prepared: Map<number, PreparedOrder>, sheetName: string, report: ReportProgress) {
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
    const from = job.resumeAfter ?? 0;
    let created = from > 0 ? (await store.counts(job.importId)).created : 0;
    for (let cursor = from; cursor < total; cursor += options.batchSize) {
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
    await readers.run({ kind: 'errors-file', bytes, limits: options, marks, headerRow: rowStart > 1 ? rowStart - 1 : undefined, title: errorsTitle }, (m) => {
      if (m.type === 'file') file = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
    });
    await update(importId, { errors_file: file! });
    return file!;
  }

  return { execute, makeErrorsFile, writer };
}

export type ImportPipeline = ReturnType<typeof createImportPipeline>;
