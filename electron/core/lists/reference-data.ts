import type BetterSqlite3 from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import type { Point, ProviderService, Tariff } from '../../../shared/schemas/lists';
import { expandPoints, manifestSchema, pointsFileSchema, servicesFileSchema, tariffsFileSchema, type Manifest } from './reference-format';
import { pointToRow } from './points-repository';
import { serviceToRow, tariffToRow } from './tariffs-repository';

/**
 * Loads shipped reference data (resources/<dataset>/) into the points, tariffs and provider_services
 * tables. It runs at every start, so the common case — nothing changed — costs one small file read
 * and one indexed SELECT; a new version replaces the dataset's rows in one transaction.
 */

/** `<repo>/resources` in the source tree; the packaged app passes its own (process.resourcesPath). */
export const defaultResourcesDir = fileURLToPath(new URL('../../../resources/', import.meta.url));

/**
 * Bumped when the way rows are derived from the files changes (folding, columns): the stored version
 * then differs and the data is loaded again even though the files did not change.
 */
export const loaderVersion = 1;

export interface LoadOutcome {
  dataset: string;
  /** The manifest version with the loader version: what reference_data records. */
  version: string;
  /** False when the database already held this version (nothing was read beyond the manifest). */
  loaded: boolean;
  points: number;
  tariffs: number;
  services: number;
  ms: number;
}

export class ReferenceDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceDataError';
  }
}

function readJson<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ReferenceDataError(`${file}: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReferenceDataError(`${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export interface Dataset {
  points: Point[];
  tariffs: Tariff[];
  services: ProviderService[];
}

/** Table rows ready to insert: column names and the values of each row in that order. */
interface TableRows {
  columns: string[];
  values: unknown[][];
}
type PreparedDataset = Record<'points' | 'tariffs' | 'provider_services', TableRows>;

function tableRows(rows: Record<string, unknown>[]): TableRows {
  const columns = rows.length ? Object.keys(rows[0]) : [];
  return { columns, values: rows.map((row) => columns.map((c) => row[c])) };
}

/** The rows of a dataset for its tables, derived columns (folded city, search text) included. */
export function prepareDataset(source: string, data: Dataset): PreparedDataset {
  return {
    points: tableRows(data.points.map((p) => pointToRow(source, p))),
    tariffs: tableRows(data.tariffs.map((t) => tariffToRow(source, t))),
    provider_services: tableRows(data.services.map((s, i) => serviceToRow(source, s, i))),
  };
}

/** Replaces the dataset's rows with these (the caller owns the transaction). */
function writeDataset(sqlite: BetterSqlite3.Database, source: string, prepared: PreparedDataset) {
  for (const [table, { columns, values }] of Object.entries(prepared)) {
    sqlite.prepare(`DELETE FROM ${table} WHERE source = ?`).run(source);
    if (values.length === 0) continue;
    const insert = sqlite.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    for (const row of values) insert.run(row);
  }
  // Fresh statistics let the planner pick the city index for a small city and the provider index for a big one.
  sqlite.exec('ANALYZE points; ANALYZE tariffs; ANALYZE provider_services;');
}

/** Replaces the dataset's rows with these records (the caller owns the transaction). Benchmarks use it to load 100,000 points. */
export function replaceDataset(sqlite: BetterSqlite3.Database, source: string, data: Dataset) {
  writeDataset(sqlite, source, prepareDataset(source, data));
}

/**
 * The last dataset read in this process, by folder and version: a second app in the same process
 * (the tests start many) skips reading and deriving and only inserts.
 */
let lastRead: { key: string; prepared: PreparedDataset } | null = null;

/** The files of a dataset, parsed and checked. */
export function readDataset(dir: string, manifest: Manifest): Dataset {
  return {
    points: expandPoints(readJson(join(dir, manifest.files.points), pointsFileSchema)),
    tariffs: readJson(join(dir, manifest.files.tariffs), tariffsFileSchema),
    services: readJson(join(dir, manifest.files.services), servicesFileSchema),
  };
}

/**
 * Brings the dataset in the database up to the shipped version. Returns null when the resources
 * folder has no such dataset (the tables are left as they are). Throws ReferenceDataError on
 * unreadable files; nothing is changed then.
 */
export function loadReferenceData(
  sqlite: BetterSqlite3.Database,
  options: { resourcesDir: string; dataset?: string; now: number },
): LoadOutcome | null {
  const started = performance.now();
  const dataset = options.dataset ?? 'sandbox';
  const dir = join(options.resourcesDir, dataset);
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = readJson(manifestFile, manifestSchema);
  if (manifest.dataset !== dataset) throw new ReferenceDataError(`${manifestFile}: describes dataset ${manifest.dataset}, expected ${dataset}`);
  const version = `${manifest.version}/loader-${loaderVersion}`;

  const current = sqlite.prepare('SELECT version, row_count FROM reference_data WHERE dataset = ?');
  const stored = () => current.get(dataset) as { version: string; row_count: number } | undefined;
  const same = stored();
  if (same?.version === version) {
    return { dataset, version, loaded: false, points: same.row_count, tariffs: 0, services: 0, ms: performance.now() - started };
  }

  const cacheKey = `${dir}\0${version}`;
  if (lastRead?.key !== cacheKey) lastRead = { key: cacheKey, prepared: prepareDataset(dataset, readDataset(dir, manifest)) };
  const { prepared } = lastRead;
  // IMMEDIATE: a second app starting on the same folder waits here, then sees the version and skips.
  const loaded = sqlite.transaction(() => {
    if (stored()?.version === version) return false;
    writeDataset(sqlite, dataset, prepared);
    sqlite
      .prepare(
        `INSERT INTO reference_data (dataset, version, row_count, loaded_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (dataset) DO UPDATE SET version = excluded.version, row_count = excluded.row_count, loaded_at = excluded.loaded_at`,
      )
      .run(dataset, version, prepared.points.values.length, options.now);
    return true;
  }).immediate();
  return {
    dataset,
    version,
    loaded,
    points: prepared.points.values.length,
    tariffs: prepared.tariffs.values.length,
    services: prepared.provider_services.values.length,
    ms: performance.now() - started,
  };
}
