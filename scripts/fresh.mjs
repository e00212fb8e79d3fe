// Is a build output older than its sources? Shared by the start scripts.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Newest modification time under the given files/folders (0 when none exist). */
export function newestMtime(paths) {
  let newest = 0;
  for (const p of paths) {
    let stat;
    try {
      stat = statSync(p);
    } catch {
      continue;
    }
    if (!stat.isDirectory()) newest = Math.max(newest, stat.mtimeMs);
    else
      for (const entry of readdirSync(p, { withFileTypes: true })) {
        if (entry.name !== 'node_modules') newest = Math.max(newest, newestMtime([path.join(p, entry.name)]));
      }
  }
  return newest;
}

/** True when an output is missing or older than any of its sources. */
export function stale(outputs, sources) {
  if (!outputs.every((o) => existsSync(o))) return true;
  const oldestOutput = Math.min(...outputs.map((o) => statSync(o).mtimeMs));
  return newestMtime(sources) > oldestOutput;
}
