import type { FieldError } from '../../../shared/errors';
import type { OrderCreate } from '../../../shared/schemas/order';
import { checkOrder } from '../orders/order-rules';
import type { ReferenceData } from '../orders/reference-data';
import type { ProviderRegistry } from '../providers/registry';
import { parseRange } from './columns';
import { FileProblem, type WorkbookInfo } from './file-check';
import { failureOf, rowsText, type Entry } from './import-failures';
import type { ImportOptions } from './import-options';
import type { ReportProgress } from './import-progress';
import type { ImportReaders } from './import-readers';
import { yieldToEventLoop } from './import-store';
import type { OrderSpool } from './order-spool';
import { prepareOrder } from '../store/orders/prepared-order';
import type { RowFieldError } from './row-mapper';
import type { CompiledSettings } from './settings';
import type { ReadSummary } from './sheet-reader';
import { taskSource, type MainMessage } from './worker-protocol';
import type { LocateAsk, MappedOrder } from './worker-mapping';

/**
 * The first half of a run: the sheet read and its rows mapped to orders (checked against the schema of
 * POST /orders) in the worker, each order checked with the rules of POST /orders on the main thread (they
 * need the delivery services and reference data), as the orders arrive. Nothing is written to the
 * database: the valid orders go to the run's spool (a file), the rest are reported by their entries.
 */

/** Orders checked between two turns of the event loop. */
const checkSlice = 50; // ≈ 1–3 ms of work on an idle machine: room for the CPU contention of a busy one under the 100 ms goal
/**
 * Rows per batch from the reading worker (fewer when their cells pass sheet-reader's maxBatchBytes), and
 * the bytes of rows it may read ahead of the checking (flow control): at most the orders of this much wait
 * on the main thread (and their rows in the worker), however long or wide the sheet. 2 MiB is ≈ 1,000 of
 * the benchmark's rows, 4–8 batches ahead: enough to keep both threads busy. (8 MiB cost ≈ 20 MB more peak
 * RSS on the hostile wide sheet: 375 against 355 MB, the worker's young generation 64 MB in both.)
 */
const readBatchRows = 250;
export const readWindowBytes = 2 * 1024 * 1024;

export interface OrdersRead {
  /** Every order of the file in file order; a valid one has no failure and its row in the spool. */
  entries: Entry[];
  sheetName: string;
  /** Declared unpacked size of the workbook's styles (what an errors file keeps whole). */
  stylesXmlBytes: number;
}

export interface ReadRequest {
  bytes: Buffer;
  /** Where the same bytes are kept (import-store.ts sourceFile): the worker reads them there, none copied to it. */
  file?: string;
  compiled: CompiledSettings;
  signal: AbortSignal;
  /** Beyond the rules of POST /orders: what the delivery service will refuse (the wizard's check; orders/service-reach.ts). */
  reach?: (order: OrderCreate) => Promise<FieldError[]>;
}

export function createOrderReading(deps: { providers: ProviderRegistry; reference: ReferenceData; options: ImportOptions; readers: ImportReaders }) {
  const { providers, reference, options, readers } = deps;

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
   * The worker reads the rows and builds the orders (worker-mapping.ts); here each order is checked with
   * the rules of POST /orders in slices, each followed by a turn of the event loop, so the main thread
   * never works for long at a stretch however fast the orders arrive. A batch is acknowledged once its
   * orders are checked and spooled: the worker reads at most readWindowBytes of rows ahead of that.
   */
  async function readOrders(job: ReadRequest, report: ReportProgress, spool: OrderSpool): Promise<OrdersRead> {
    const { compiled } = job;
    const remembered = rememberedReference();
    const entries: Entry[] = [];
    let info: WorkbookInfo | undefined;
    let summary: ReadSummary | undefined;
    let rowsRead = 0;
    let estimate = 0;
    // the batches received and not yet checked; a batch is acknowledged once all its orders are
    const batches: { orders: MappedOrder[]; ack: () => void }[] = [];
    let at = 0;
    let working: Promise<void> | null = null;
    let failure: unknown;
    let toWorker: ((message: MainMessage) => void) | undefined;
    const locating = new Map<number, (errors: RowFieldError[][]) => void>();
    let asked = 0;
    /** The errors of our checks told at their cells, by the worker that still has the orders' rows. */
    const locate = (asks: LocateAsk[]) =>
      new Promise<RowFieldError[][]>((resolve) => {
        const id = ++asked;
        locating.set(id, resolve);
        toWorker!({ type: 'locate', id, asks });
      });

    // only the entry stays of an order (its payload is in the spool or its errors in the failure)
    const entryOf = (o: MappedOrder, errors: RowFieldError[]): Entry => {
      const entry: Entry = { seq: o.seq, row: o.row, lastRow: o.lastRow, clientNumber: o.clientNumber };
      if (errors.length || !spool.has(o.seq)) entry.failure = failureOf(errors, rowsText(info?.sheetName ?? '', o.row, o.lastRow));
      return entry;
    };
    const check = async (payload: OrderCreate): Promise<FieldError[]> => {
      const errors = await checkOrder(payload, providers.get(payload.order.providerKey), remembered);
      return errors.length === 0 && job.reach ? job.reach(payload) : errors;
    };
    const accept = async (list: MappedOrder[]) => {
      const checked = await Promise.all(list.map((o) => (o.payload ? check(o.payload) : [])));
      const asks: LocateAsk[] = [];
      list.forEach((o, k) => {
        if (checked[k].length) asks.push({ seq: o.seq, row: o.row, errors: checked[k] });
        else if (o.payload) spool.put(o.seq, prepareOrder(o.payload)); // the row as it will be written
      });
      const located = asks.length ? await locate(asks) : [];
      const bySeq = new Map(asks.map((a, k) => [a.seq, located[k] ?? []]));
      for (const o of list) entries.push(entryOf(o, bySeq.get(o.seq) ?? o.errors));
    };
    const work = async () => {
      try {
        while (batches.length) {
          const batch = batches[0];
          const slice = batch.orders.slice(at, at + checkSlice);
          at += slice.length;
          await accept(slice);
          if (at >= batch.orders.length) {
            batches.shift(); // checked: the worker may read on
            at = 0;
            batch.ack();
          }
          await yieldToEventLoop();
        }
      } catch (error) {
        failure = error;
        // the read goes on to its end (and the failure is thrown then): never hold the worker
        for (const b of batches.splice(0)) b.ack();
      } finally {
        working = null;
      }
    };

    await readers.run(
      {
        kind: 'read',
        ...taskSource(job),
        limits: options,
        read: { fromRow: compiled.rowStart, dataFrom: compiled.rowStart, toRow: compiled.rowEnd, batchRows: readBatchRows, columns: compiled.readColumns },
        windowBytes: readWindowBytes,
        orders: compiled,
      },
      (m, reply) => {
        toWorker ??= reply;
        if (m.type === 'workbook') info = m.info;
        else if (m.type === 'dimension') {
          const range = parseRange(m.ref);
          if (range) estimate = Math.max(0, Math.min(range.bottom, compiled.rowEnd ?? range.bottom) - compiled.rowStart + 1);
        } else if (m.type === 'orders') {
          rowsRead += m.rows;
          if (failure) reply({ type: 'ack' });
          else {
            batches.push({ orders: m.orders, ack: () => reply({ type: 'ack' }) });
            working ??= work();
          }
          report('reading', rowsRead, Math.max(estimate, rowsRead));
        } else if (m.type === 'located') {
          locating.get(m.id)?.(m.errors);
          locating.delete(m.id);
        } else if (m.type === 'done') summary = m.summary;
      },
      job.signal,
    );
    while (working) await working;
    if (failure) throw failure;
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
        'import.problem.merged',
      );
    }
    if (entries.length === 0) {
      throw new FileProblem('no-rows', `No orders found in the sheet «${sheetName}» from row ${compiled.rowStart}${compiled.rowEnd ? ` to row ${compiled.rowEnd}` : ''}: the mapped columns are empty there.`, 'import.problem.noRows');
    }
    return { entries, sheetName, stylesXmlBytes: info?.stylesXmlBytes ?? 0 };
  }
  return readOrders;
}
