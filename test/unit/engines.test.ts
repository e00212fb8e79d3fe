import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// package.json promises the Node versions ShipDesk runs on; every installed package must run there too
// (kysely 0.29 and @electron/rebuild 4 ask for Node 22, for example). The lock file records each
// package's `engines`, so this reads it rather than node_modules.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

describe('engines', () => {
  it('every locked dependency accepts the oldest Node that package.json promises', () => {
    const promised = semver.minVersion(readJson('package.json').engines.node);
    expect(promised).not.toBeNull();
    const lock = readJson('package-lock.json') as { packages: Record<string, { engines?: { node?: string } | string[] }> };
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !semver.satisfies(promised!, range, { includePrerelease: true }) ? [`${name} wants node ${range}`] : [];
      });
    expect(refusing).toEqual([]);
  });
});
