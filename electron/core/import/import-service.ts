import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UploadSettings } from '../../../shared/schemas/upload';
import type { CallContext } from '../companies/company-service';
import { validationError } from '../errors';
import type { StoredReferenceData } from '../orders/reference-data';
import { createServiceReach } from '../orders/service-reach';
import type { FetchLike } from './download';
import { createImportJobs } from './import-jobs';
import { defaultImportOptions, type ImportOptions } from './import-options';
import { createImportPipeline, type ImportAppParts } from './import-pipeline';
import { createImportReaders } from './import-readers';
import { createImportRecovery } from './import-recovery';
import { createImportStore } from './import-store';
import { createImportWizard, wizardOptional } from './import-wizard';
import { compileSettings, type CompiledSettings, type CompileOptions, type ServicesLookup } from './settings';
import { createUploadEndpoint } from './upload-endpoint';

/**
 * Spreadsheet imports: POST /orders/upload and the desktop wizard's commands, put together from their
 * parts — the store of imports (import-store.ts), the pipeline of a run (import-pipeline.ts), running and
 * cancelling runs (import-jobs.ts), the upload endpoint's answer (upload-endpoint.ts) and the wizard
 * (import-wizard.ts). See README.md for how a run goes.
 */

export { defaultImportOptions, type ImportOptions } from './import-options';
export { fileProblemBody } from './import-failures';

export interface ImportServiceDeps extends ImportAppParts {
  /** The reference data the orders service checks orders against (pass the same instance). */
  reference: StoredReferenceData;
  /** Additional services of a delivery service, for extraParams columns; default: the reference lists. */
  services?: ServicesLookup;
  fetch?: FetchLike;
  options?: Partial<ImportOptions>;
  /** The data folder: import files are kept in its imports/ folder (default: a new temporary folder). */
  dataDir?: string;
  /** The company's default sender (its sender profile), which the wizard uses when no sender column is mapped. */
  defaultSender?: (ctx: CallContext) => Promise<Record<string, unknown> | undefined>;
}

export function createImportService(deps: ImportServiceDeps) {
  const { clock, log, events, providers } = deps;
  const options: ImportOptions = { ...defaultImportOptions, ...deps.options };
  const fetchFile: FetchLike = deps.fetch ?? ((input, init) => fetch(input, init));

  /** The extraParams names a delivery service takes: its list, or undefined when the app has no reference data for it. */
  const lookupServices: ServicesLookup =
    deps.services ??
    (async (providerKey) => {
      const list = await deps.reference.services(providerKey);
      if (list) return list;
      return (await deps.reference.tariffs(providerKey)) ? [] : undefined;
    });

  /**
   * The settings checked and compiled, for the interface's upload and the wizard alike. The upload's
   * providerKey (required by the interface) must name a service before anything is read; a row's own
   * provider column may still name another service (the row keeps its own).
   */
  async function compile(settings: UploadSettings, wizard?: Pick<CompileOptions, 'optional'>): Promise<CompiledSettings> {
    if (!providers.get(settings.providerKey)) throw validationError([{ field: 'providerKey', message: `unknown delivery service ${settings.providerKey}` }]);
    return compileSettings(settings, { lookupServices, lookupTariffs, deliveryServices: () => providers.list(), ...wizard });
  }
  const lookupTariffs = (providerKey: string) => deps.reference.tariffs(providerKey);

  const dataDir = deps.dataDir ?? mkdtempSync(path.join(tmpdir(), 'shipdesk-imports-'));
  const store = createImportStore({ imports: deps.imports, clock, options, dataDir });
  const readers = createImportReaders(options);
  const { reference } = deps;
  const pipeline = createImportPipeline({ ...deps, reference, options, store, readers });
  const jobs = createImportJobs({ clock, log, events, store, pipeline });
  const wizard = createImportWizard({ options, store, jobs, pipeline, readers, compile: (settings) => compile(settings, { optional: wizardOptional }),
    defaultSender: deps.defaultSender,
    reach: () => createServiceReach({ providers, reference, clock }),
  });

  return {
    upload: createUploadEndpoint({ options, fetch: fetchFile, store, jobs, orders: deps.orders, compile }),

    /** GET /orders/upload/{uploadId}: the upload's state and its results so far. */
    state: (ctx: CallContext, importId: number, paging: { offset?: number; limit?: number } = {}) => store.state(ctx, importId, paging.offset, paging.limit),
    /** import.results: the same, each row error also by key for the window's language. */
    results: (ctx: CallContext, importId: number, paging: { offset: number; limit: number }) => store.state(ctx, importId, paging.offset, paging.limit, true),

    ...wizard,

    /** At start: imports a crash left under way are taken up again or failed plainly (import-recovery.ts). */
    recover: createImportRecovery({ clock, log, store, jobs, pipeline, compile: (settings, origin) => compile(settings, origin === 'desktop' ? { optional: wizardOptional } : undefined) }),

    /** Keeps a reading worker started ahead (exceljs loaded), so an import does not wait for one. */
    prewarm: () => readers.prewarm(),

    /** Waits for the imports under way (app shutdown); with cancel, stops them first. */
    async stop(cancel = true): Promise<void> {
      await jobs.stop(cancel);
      readers.close();
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
