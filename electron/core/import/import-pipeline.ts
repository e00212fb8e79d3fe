import { readFileSync, rmSync } from 'node:fs';
import { fieldErrorLine, keyOfWireText, message, messageText, said, type MessageLanguage } from '../../../shared/messages';
import type { CallContext } from '../companies/company-service';
import type { Clock } from '../clock';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import { createDraftImportWriter } from '../drafts/draft-import';
import type { ReferenceData } from '../orders/reference-data';
import type { Outbox } from '../outbox/outbox';
import type { ProviderRegistry } from '../providers/registry';
import type { DraftsStore } from '../store/drafts/drafts-store';
import type { FailedImportRow, ImportWriteItem, OrdersStore, PreparedOrder } from '../store/orders/orders-store';
import type { ImportsStore } from '../store/imports/imports-store';
import type { RowMark } from './errors-file';
import { checkErrorsFileParts } from './file-check';
import { canceledFailure, duplicateErrors, failureOf, rowsText, type Entry } from './import-failures';
import type { ImportOptions } from './import-options';
import { progressReporter, type ReportProgress } from './import-progress';
import type { ImportReaders } from './import-readers';
import { yieldToEventLoop, type ImportStore } from './import-store';
import { createOrderSpool, type OrderSpool } from './order-spool';
import type { RowFieldError } from './row-mapper';
import type { CompiledSettings } from './settings';
import { createOrderReading, type ReadRequest } from './read-orders';
import { ImportCanceled } from './worker-client';
import { taskSource, type TaskSource } from './worker-protocol';

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
  /** The file `bytes` are kept in, when it is written already: the reading worker takes them from there (ReadRequest). */
  file?: string;
  compiled: CompiledSettings;
  dryRun: boolean;
  /** The language of the window that started the run: its errors file is written in it (else the app's setting). */
  language?: MessageLanguage;
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

/** The logger of one import's work: every line names the company and the import, so support can find them. */
export const importLog = (log: Logger, job: { ctx: { companyId: number }; importId: number }) => log.child({ companyId: job.ctx.companyId, importId: job.importId });

export interface RunOutcome {
  entries: Entry[];
  sheetName: string;
  errorsFile?: Buffer;
}

/** The parts of the app an import works with. */
export interface ImportAppParts {
  orders: OrdersStore;
  drafts: DraftsStore;
  imports: ImportsStore;
  clock: Clock;
  log: Logger;
  events: EventBus;
  providers: ProviderRegistry;
  outbox: Outbox;
  /** The language of the words the app writes into files (the errors file): the app's setting. Default Russian. */
  language?: () => Promise<MessageLanguage>;
}

export interface PipelineDeps extends ImportAppParts {
  reference: ReferenceData;
  options: ImportOptions;
  store: ImportStore;
  readers: ImportReaders;
}

/**
 * Orders read from the spool for the first write transaction; each next read is what the last transaction took
 * (twice that when it took all it was given, up to batchSize). Orders read ahead of their transaction outlived
 * the turns between and died in the old generation: read 1,000 at a time, 100,000 wide rows took a serve
 * process's main heap to 222 MB (peak RSS 425 MB) where forced collections in a like run found ≈ 75 MB live.
 */
const firstWriteRead = 50;

/** Order ids whose held create jobs one statement releases (≈ 14 ms of SQLite's time per 10,000 on an idle machine). */
const releaseSlice = 2_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

export function createImportPipeline(deps: PipelineDeps) {
  const { orders: ordersStore, drafts, clock, log, events, providers, outbox, reference, options, store, readers } = deps;
  const draftWriter = createDraftImportWriter({ drafts, events });
  const update = store.update;
  const readOrders = createOrderReading({ providers, reference, options, readers });
  /** The language a file is written in: the window's that asked for it, else the app's setting, else Russian. */
  const languageOfFiles = async (window?: MessageLanguage | null): Promise<MessageLanguage> => window ?? (await deps.language?.()) ?? 'ru';

  /** Reads, checks and (unless dry) writes; records the outcome of every order. Throws FileProblem / ImportCanceled. */
  async function execute(job: Job): Promise<RunOutcome> {
    const spool = createOrderSpool(store.spoolFile(job.ctx.companyId, job.importId));
    try {
      return await executeWith(job, spool);
    } finally {
      spool.remove();
    }
  }

  async function executeWith(job: Job, spool: OrderSpool): Promise<RunOutcome> {
    const report = progressReporter(events, job.ctx, job.importId);
    if (!job.dryRun) await update(job.importId, { status: 'reading' });
    report('reading', 0, 0, true);
    const { entries, sheetName, stylesXmlBytes } = await readOrders(job, report, spool);
    if (job.errorsToFile) checkErrorsFileParts({ stylesXmlBytes }); // the wizard's staged files too: still before any order

    if (job.dryRun) {
      const valid = entries.filter((e) => spool.has(e.seq));
      const numbers = await clientNumbers(spool, valid);
      const live = await ordersStore.liveOrderIds(job.ctx.companyId, [...numbers.values()]);
      for (const e of valid) {
        const existing = live.get(numbers.get(e.seq)!);
        if (existing !== undefined) e.failure = failureOf(duplicateErrors(e, existing), rowsText(sheetName, e.row, e.lastRow));
      }
      return { entries, sheetName };
    }

    if (job.signal.aborted) throw new ImportCanceled();
    if (job.asDrafts) {
      const failed = await writeDrafts(job, entries, spool, sheetName, report);
      return { entries, sheetName, errorsFile: job.errorsToFile && failed > 0 ? await errorsFileOf(job, entries) : undefined };
    }
    const total = entries.length;
    let cursor = job.resumeAfter ?? 0;
    let created = cursor > 0 ? (await store.counts(job.importId)).created : 0;
    let failed = cursor - created;
    await update(job.importId, { status: 'creating', total, done: cursor, created, failed });
    report('creating', cursor, total, true);
    const itemsAt = (from: number, count: number): ImportWriteItem[] => {
      const batch = entries.slice(from, from + count);
      const orders = spool.read(batch.map((e) => e.seq));
      return batch.map((e) => {
        const order = orders.get(e.seq);
        return order
          ? { seq: e.seq, row: e.row, lastRow: e.lastRow, order }
          : { seq: e.seq, row: e.row, lastRow: e.lastRow, clientNumber: e.clientNumber, error: JSON.stringify(e.failure) };
      });
    };
    let ahead: ImportWriteItem[] = [];
    let readCount = firstWriteRead;
    let firstId = Number.POSITIVE_INFINITY;
    let lastId = 0;
    const release = async () => {
      if (lastId > 0) await releaseJobs(job.ctx.companyId, firstId, lastId);
    };
    try {
      while (cursor < total) {
        if (job.signal.aborted) {
          const rest = entries.slice(cursor);
          const records: FailedImportRow[] = rest.map((e) => {
            e.failure = canceledFailure(sheetName, e);
            return { seq: e.seq, row: e.row, lastRow: e.lastRow, clientNumber: e.clientNumber, error: JSON.stringify(e.failure) };
          });
          await ordersStore.recordImportFailures(job.importId, records);
          failed += rest.length;
          await update(job.importId, { done: total, created, failed });
          throw new ImportCanceled();
        }
        // a transaction may stop early (writeSliceMs): what it left is written by the next, not read again
        if (!ahead.length) ahead = itemsAt(cursor, readCount);
        const given = ahead.length;
        const { outcomes, consumed } = await ordersStore.createImportedOrders({
          companyId: job.ctx.companyId,
          importId: job.importId,
          items: ahead,
          at: clock.now(),
          duplicateError: (o, existing) => {
            const e = entries[o.seq];
            e.failure = failureOf(duplicateErrors(e, existing), rowsText(sheetName, e.row, e.lastRow));
            return JSON.stringify(e.failure);
          },
          budgetMs: options.writeSliceMs,
          holdMs: options.jobHoldMs,
        });
        const orderIds = outcomes.flatMap((o) => ('orderId' in o ? [String(o.orderId)] : []));
        if (orderIds.length) {
          events.publish({ type: 'orders.changed', companyId: job.ctx.companyId, orderIds });
          if (!options.jobHoldMs) outbox.kick();
        }
        for (const o of outcomes) {
          if (!('orderId' in o)) continue;
          created++;
          firstId = Math.min(firstId, o.orderId);
          lastId = Math.max(lastId, o.orderId);
          entries[o.seq].orderId = o.orderId;
          entries[o.seq].created = o.created;
        }
        cursor += consumed;
        ahead = ahead.slice(consumed);
        readCount = consumed === given ? Math.min(options.batchSize, readCount * 2) : Math.max(firstWriteRead, consumed);
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
      await Promise.race([outbox.drain().catch((error) => importLog(log, job).warn(`upload ${job.importId}: sending to the delivery services failed: ${(error as Error).message}`)), delay(options.registrationWaitMs)]);
    }

    return { entries, sheetName, errorsFile: job.errorsToFile && failed > 0 ? await errorsFileOf(job, entries) : undefined };
  }

  /** The clientNumbers of spooled orders (as their payloads say), by seq. */
  async function clientNumbers(spool: OrderSpool, valid: Entry[]): Promise<Map<number, string>> {
    const numbers = new Map<number, string>();
    for (let at = 0; at < valid.length; at += options.batchSize) {
      for (const [seq, order] of spool.read(valid.slice(at, at + options.batchSize).map((e) => e.seq))) numbers.set(seq, order.clientNumber);
      await yieldToEventLoop();
    }
    return numbers;
  }

  /** The errors file of a run: its failures as the run knows them, or as recorded when it was taken up again. */
  async function errorsFileOf(job: Job, entries: Entry[]) {
    return makeErrorsFile(job.ctx, job.importId, taskSource(job), job.compiled.rowStart, job.resumeAfter ? await store.failedEntries(job.importId) : entries, job.language);
  }

  /**
   * The "as drafts" target: valid orders become drafts (a clientNumber already live as an order or a draft is
   * reported as a duplicate), in batches, each recorded in import_rows with its drafts. Returns how many failed.
   */
  async function writeDrafts(job: Job, entries: Entry[], spool: OrderSpool, sheetName: string, report: ReportProgress) {
    const valid = entries.filter((e) => spool.has(e.seq));
    const numbers = await clientNumbers(spool, valid);
    const [live, drafted] = await Promise.all([ordersStore.liveOrderIds(job.ctx.companyId, [...numbers.values()]), draftWriter.existing(job.ctx, [...numbers.values()])]);
    for (const e of valid) {
      const n = numbers.get(e.seq)!;
      const orderId = live.get(n);
      const draftId = drafted.get(n);
      let errors: RowFieldError[] | undefined;
      if (orderId !== undefined) errors = duplicateErrors(e, orderId);
      else if (draftId !== undefined) errors = [{ field: 'order.clientNumber', ...said('import.draftExists', { number: n, draftId }), row: e.row }];
      if (errors) {
        e.failure = failureOf(errors, rowsText(sheetName, e.row, e.lastRow));
        spool.drop(e.seq);
      }
    }
    const total = entries.length;
    await update(job.importId, { status: 'creating', total, done: 0 });
    report('creating', 0, total, true);
    const from = job.resumeAfter ?? 0;
    let created = from > 0 ? (await store.counts(job.importId)).created : 0;
    for (let cursor = from; cursor < total; cursor += options.batchSize) {
      const batch = entries.slice(cursor, cursor + options.batchSize);
      // Read once: a cancel arriving while this batch is written is seen by the next, which records the rest as canceled.
      const aborted = job.signal.aborted;
      if (aborted) for (const e of entries.slice(cursor)) if (!e.failure) e.failure = canceledFailure(sheetName, e);
      const orders = aborted ? new Map<number, PreparedOrder>() : spool.read(batch.map((e) => e.seq));
      const made = await draftWriter.write(
        job.ctx,
        job.importId,
        (aborted ? entries.slice(cursor) : batch).map((e) =>
          e.failure ? { seq: e.seq, row: e.row, lastRow: e.lastRow, clientNumber: e.clientNumber, error: JSON.stringify(e.failure) } : { seq: e.seq, row: e.row, lastRow: e.lastRow, clientNumber: e.clientNumber, json: orders.get(e.seq)!.json },
        ),
        clock.now(),
      );
      for (const [seq, draftId] of made) entries[seq].draftId = draftId;
      created += made.size;
      if (aborted) {
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

  /**
   * Writes the errors file (in the worker, straight to a file in the data folder), keeps it with its import
   * and returns its bytes (the compressed workbook: about the size of the file the shop sent).
   */
  async function makeErrorsFile(ctx: CallContext, importId: number, source: TaskSource, rowStart: number, entries: Entry[], window?: MessageLanguage | null): Promise<Buffer> {
    const language = await languageOfFiles(window);
    const marks: RowMark[] = [];
    for (const e of entries) {
      if (!e.failure) continue;
      const byRow = new Map<number, string[]>();
      for (const err of e.failure.errors) {
        const list = byRow.get(err.row) ?? [];
        list.push(fieldErrorLine(err, language));
        byRow.set(err.row, list);
      }
      const fixed = e.failure.errors.length === 0 ? keyOfWireText(e.failure.description) : undefined; // "canceled before…"
      if (e.failure.errors.length === 0) byRow.set(e.row, [fixed ? messageText({ key: fixed }, language) : e.failure.description]);
      for (let r = e.row; r <= e.lastRow; r++) marks.push({ row: r, messages: byRow.get(r) ?? [] });
    }
    const outPath = store.errorsDraftFile(ctx.companyId, importId);
    try {
      const title = messageText(message('import.errorsColumn'), language);
      await readers.run({ kind: 'errors-file', ...source, limits: options, marks, headerRow: rowStart > 1 ? rowStart - 1 : undefined, title, outPath }, () => {});
      const file = readFileSync(outPath);
      await store.keepErrorsFile(importId, outPath);
      return file;
    } finally {
      rmSync(outPath, { force: true });
    }
  }

  /**
   * Makes the held create jobs of the import's orders (ids from..to) due now and wakes the outbox. (An import
   * holds its jobs while it writes, so sending does not compete with writing; if the app stops before this,
   * the hold simply runs out.)
   */
  async function releaseJobs(companyId: number, from: number, to: number): Promise<void> {
    // a range of ids at a time, with a turn of the event loop between: one statement for 100,000 jobs holds the main thread
    for (let at = from; at <= to; at += releaseSlice) {
      await ordersStore.releaseHeldCreates(companyId, at, Math.min(to, at + releaseSlice - 1), clock.now());
      if (at + releaseSlice <= to) await yieldToEventLoop();
    }
    outbox.kick();
  }

  return { execute, makeErrorsFile, languageOfFiles, releaseJobs };
}

export type ImportPipeline = ReturnType<typeof createImportPipeline>;
