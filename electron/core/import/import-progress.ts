import type { ImportProgressEvent } from '../../../shared/contract/import';
import type { ImportStatus } from '../../../shared/schemas/upload';
import type { CallContext } from '../companies/company-service';
import type { EventBus } from '../events';

/** Publishes an import's progress to its company's windows: at most every 100 ms, unless forced. */
export function progressReporter(events: EventBus, ctx: CallContext, importId: number) {
  let last = 0;
  return (status: ImportStatus, done: number, total: number, force = false) => {
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    const event: ImportProgressEvent = { type: 'import.progress', importId, status, done, total };
    events.publish({ ...event, companyId: ctx.companyId });
  };
}

export type ReportProgress = ReturnType<typeof progressReporter>;
