import type { UploadRequest, UploadResultItem, UploadState } from '../../../shared/schemas/upload';
import { formatTimestamp } from '../../../shared/time';
import type { CallContext } from '../companies/company-service';
import type { OrdersStore } from '../store/orders/orders-store';
import type { FetchLike } from './download';
import { toResultFailure } from './import-failures';
import type { ImportJobs } from './import-jobs';
import type { ImportOptions } from './import-options';
import type { RunOutcome } from './import-pipeline';
import { yieldToEventLoop, type ImportStore } from './import-store';
import { asAppError, checkIncomingFile, fileOf } from './incoming-file';
import type { CompiledSettings } from './settings';
import type { UploadSettings } from '../../../shared/schemas/upload';

/** Orders of the sync answer read back and told between two turns of the event loop. */
const answerSlice = 1000;

/**
 * POST /orders/upload. sync: reads, creates, waits (bounded) for the delivery services' numbers and
 * answers `{ resultItems, base64 }`; a file that cannot be read is a 400 and creates nothing.
 * async: answers at once with the upload's state (uploadId); GET /orders/upload/{uploadId} tells the rest.
 */
export function createUploadEndpoint(deps: {
  options: ImportOptions;
  fetch: FetchLike;
  store: ImportStore;
  jobs: ImportJobs;
  /** Where the services' numbers of the created orders are read back. */
  orders: Pick<OrdersStore, 'registrationsOf'>;
  compile: (settings: UploadSettings) => Promise<CompiledSettings>;
}) {
  const { options, store, jobs, compile } = deps;

  /**
   * The sync answer from what the run knows; only the delivery services' numbers and statuses are read back,
   * a slice of orders at a time with a turn of the event loop after each (100,000 orders read whole were a
   * 5 s stall and 400 MB of heap).
   */
  async function syncAnswer(ctx: CallContext, outcome: RunOutcome): Promise<{ resultItems: UploadResultItem[]; base64: string | null }> {
    const resultItems: UploadResultItem[] = [];
    const stamps = new Map<number, string>();
    for (let from = 0; from < outcome.entries.length; from += answerSlice) {
      const slice = outcome.entries.slice(from, from + answerSlice);
      const registered = await deps.orders.registrationsOf(ctx.companyId, slice.flatMap((e) => (e.orderId === undefined ? [] : [e.orderId])));
      for (const e of slice) {
        if (e.orderId === undefined) resultItems.push(toResultFailure(e.clientNumber, e.row, e.failure!));
        else {
          const r = registered.get(e.orderId);
          let created = stamps.get(e.created!);
          if (created === undefined) stamps.set(e.created!, (created = formatTimestamp(e.created!)));
          resultItems.push({ clientNumber: e.clientNumber, row: e.row, orderId: e.orderId, providerNumber: r?.providerNumber ?? null, created, status: r?.statusKey });
        }
      }
      await yieldToEventLoop();
    }
    return { resultItems, base64: outcome.errorsFile ? outcome.errorsFile.toString('base64') : null };
  }

  return async function upload(ctx: CallContext, request: UploadRequest): Promise<{ resultItems: UploadResultItem[]; base64: string | null } | UploadState> {
    const compiled = await compile(request); // bad settings: 040002, the file is not even fetched
    await store.prune();
    let file: { bytes: Buffer; name?: string };
    try {
      file = await fileOf(request, options, deps.fetch);
      checkIncomingFile(file.bytes, options, request.errorsToFile); // nothing is stored of a file that cannot be imported
    } catch (error) {
      throw asAppError(error);
    }
    const created = await store.create(ctx, {
      origin: 'api',
      mode: request.mode,
      status: 'queued',
      fileName: file.name,
      bytes: file.bytes,
      settings: { providerKey: request.providerKey, columnSettings: request.columnSettings, columnMap: request.columnMap, defaultData: request.defaultData },
      errorsToFile: request.errorsToFile,
    });
    const importId = created.id;
    const job = { ctx, importId, bytes: file.bytes, file: store.sourceFile(created), compiled, dryRun: false, errorsToFile: request.errorsToFile, waitForRegistration: request.mode === 'sync' };
    if (request.mode === 'async') {
      const answer = await store.state(ctx, importId); // as it is now: queued
      jobs.start(job);
      return answer;
    }
    let outcome: RunOutcome;
    try {
      outcome = await jobs.run(job);
    } catch (error) {
      throw asAppError(error);
    }
    return syncAnswer(ctx, outcome);
  };
}
