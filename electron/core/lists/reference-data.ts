import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import type { Dataset, ReferenceStore } from '../store/reference/reference-store';
import { expandPoints, manifestSchema, pointsFileSchema, servicesFileSchema, tariffsFileSchema, type Manifest } from './reference-format';

/**
 * Loads shipped reference data (resources/<dataset>/) into the reference store. It runs at every start, so
 * the common case — nothing changed — costs one small file read and one lookup; a new version replaces
 * the dataset's records all at once.
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

/**
 * The last dataset read in this process, by folder and version: a second app in the same process (the
 * tests start many) reads nothing, and the store derives its rows once per dataset object.
 */
let lastRead: { key: string; data: Dataset } | null = null;

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
export async function loadReferenceData(
  store: ReferenceStore,
  options: { resourcesDir: string; dataset?: string; now: number },
): Promise<LoadOutcome | null> {
  const started = performance.now();
  const dataset = options.dataset ?? 'sandbox';
  const dir = join(options.resourcesDir, dataset);
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = readJson(manifestFile, manifestSchema);
  if (manifest.dataset !== dataset) throw new ReferenceDataError(`${manifestFile}: describes dataset ${manifest.dataset}, expected ${dataset}`);
  const version = `${manifest.version}/loader-${loaderVersion}`;

  const same = await store.storedDataset(dataset);
  if (same?.version === version) {
    return { dataset, version, loaded: false, points: same.points, tariffs: 0, services: 0, ms: performance.now() - started };
  }

  const cacheKey = `${dir}\0${version}`;
  if (lastRead?.key !== cacheKey) lastRead = { key: cacheKey, data: readDataset(dir, manifest) };
  const { data } = lastRead;
  const loaded = await store.loadDataset(dataset, version, data, options.now);
  return {
    dataset,
    version,
    loaded,
    points: data.points.length,
    tariffs: data.tariffs.length,
    services: data.services.length,
    ms: performance.now() - started,
  };
}
