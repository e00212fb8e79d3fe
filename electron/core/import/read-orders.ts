import type { FieldError } from '../../../shared/errors';
import type { OrderCreate } from '../../../shared/schemas/order';
import { checkOrder } from '../orders/order-rules';
import type { ReferenceData } from '../orders/reference-data';
import type { ProviderRegistry } from '../providers/registry';
import type { SheetRow } from './cells';
import { parseRange } from './columns';
import { FileProblem, type WorkbookInfo } from './file-check';
import { failureOf, rowsText, type Entry } from './import-failures';
import type { ImportOptions } from './import-options';
import type { ReportProgress } from './import-progress';
import type { ImportReaders } from './import-readers';
import { yieldToEventLoop } from './import-store';
import type { OrderSpool } from './order-spool';
import { prepareOrder } from '../store/orders/prepared-order';
import { createOrderMapper, type OrderCandidate } from './row-mapper';
import type { CompiledSettings } from './settings';
import type { ReadSummary } from './sheet-reader';

/**
 * The first half of a run: the sheet read in the worker, its rows mapped to orders and each order
 * checked with the rules of POST /orders on the main thread, as the rows arrive. Nothing is written to
 * the database: the valid orders go to the run's spool (a file), the rest are reported by their entries.
 */

/** Rows mapped (and their orders checked) between two turns of the event loop. */
const mapSlice = 50; // ≈ 2–5 ms of work on an idle machine: room for the CPU contention of a busy one under the 100 ms goal
/**
 * Rows per batch from the reading worker (fewer when their cells pass sheet-reader's maxBatchBytes), and
 * the bytes of rows it may send ahead of the mapping (flow control): at most this much waits on the main
 * thread, however long or wide the sheet. (On the benchmark's file 8 MiB is ≈ 10,000 rows: a smaller
 * window kept rows from outliving the young generation, but its round trips cost more wall-clock time
 * than that saved on this 2-core machine.)
 */
const readBatchRows = 250;
export const readWindowBytes = 8 * 1024 * 1024;

export interface OrdersRead {
  /** Every order of the file in file order; a valid one has no failure and its row in the spool. */
  entries: Entry[];
  sheetName: string;
  /** Declared unpacked size of the workbook's styles (what an errors file keeps whole). */
  stylesXmlBytes: number;
}

export interface ReadRequest {
  bytes: Buffer;
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
   * The worker's rows are queued and mapped in slices, each followed by a turn of the event loop, so
   * the main thread never works for long at a stretch however fast the rows arrive.
   */
  async function readOrders(job: ReadRequest, report: ReportProgress, spool: OrderSpool): Promise<OrdersRead> {
    const { compiled } = job;
    const mapper = createOrderMapper(compiled);
    const remembered = rememberedReference();
    const entries: Entry[] = [];
    let info: WorkbookInfo | undefined;
    let summary: ReadSummary | undefined;
    let rowsRead = 0;
    let estimate = 0;
    // the batches received and not yet mapped; a batch goes (and is acknowledged) once mapped
    const batches: { rows: SheetRow[]; ack: () => void }[] = [];
    let at = 0;
    let working: Promise<void> | null = null;
    let failure: unknown;

    // only the entry stays of a candidate (its payload is in the spool or its errors in the failure)
    const entryOf = (c: OrderCandidate, errors: OrderCandidate['errors']): Entry => {
      const lastRow = c.rows[c.rows.length - 1];
      const entry: Entry = { seq: c.seq, row: c.row, lastRow, clientNumber: c.clientNumber };
      if (errors.length || !spool.has(c.seq)) entry.failure = failureOf(errors, rowsText(info?.sheetName ?? '', c.row, lastRow));
      return entry;
    };
    const check = async (c: OrderCandidate): Promise<OrderCandidate['errors']> => {
      const payload = c.payload!;
      let errors = await checkOrder(payload, providers.get(payload.order.providerKey), remembered);
      if (errors.length === 0 && job.reach) errors = await job.reach(payload);
      if (errors.length) return errors.map((e) => c.locate!(e.field, e));
      spool.put(c.seq, prepareOrder(payload)); // the row as it will be written
      return [];
    };
    const accept = async (list: OrderCandidate[]) => {
      const checked = await Promise.all(list.map((c) => (c.payload ? check(c) : c.errors)));
      list.forEach((c, k) => entries.push(entryOf(c, checked[k])));
    };
    // Flow control: each batch is acknowledged once mapped, so the worker reads only readWindowBytes ahead.
    const work = async () => {
      try {
        while (batches.length) {
          const batch = batches[0];
          const slice = batch.rows.slice(at, at + mapSlice);
          at += slice.length;
          if (at >= batch.rows.length) {
            batches.shift(); // mapped: its rows go as soon as their orders are built
            at = 0;
            batch.ack();
          }
          const built: OrderCandidate[] = [];
          for (const row of slice) built.push(...mapper.push(row));
          await accept(built);
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
        bytes: job.bytes,
        limits: options,
        read: { fromRow: compiled.rowStart, dataFrom: compiled.rowStart, toRow: compiled.rowEnd, batchRows: readBatchRows, columns: compiled.readColumns },
        windowBytes: readWindowBytes,
      },
      (m, reply) => {
        if (m.type === 'workbook') info = m.info;
        else if (m.type === 'dimension') {
          const range = parseRange(m.ref);
          if (range) estimate = Math.max(0, Math.min(range.bottom, compiled.rowEnd ?? range.bottom) - compiled.rowStart + 1);
        } else if (m.type === 'rows') {
          rowsRead += m.rows.length;
          if (failure) reply({ type: 'ack' });
          else {
            batches.push({ rows: m.rows, ack: () => reply({ type: 'ack' }) });
            working ??= work();
          }
          report('reading', rowsRead, Math.max(estimate, rowsRead));
        } else if (m.type === 'done') summary = m.summary;
      },
      job.signal,
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
    if (entries.length === 0) {
      throw new FileProblem('no-rows', `No orders found in the sheet «${sheetName}» from row ${compiled.rowStart}${compiled.rowEnd ? ` to row ${compiled.rowEnd}` : ''}: the mapped columns are empty there.`);
    }
    return { entries, sheetName, stylesXmlBytes: info?.stylesXmlBytes ?? 0 };
  }
  return readOrders;
}
