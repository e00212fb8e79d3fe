import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A small tmpfs, so that a disk can really fill up: its folder, or null (said on the console) where
 * mounting is not permitted. Needs root, which CI has (.ci/run installs with apt-get as root).
 */
export function mountSmallDisk(what: string, sizeMb = 48): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmdirSync(dir);
    console.log(`${what} skipped: mounting a tmpfs is not permitted here (run as root to include it)`);
    return null;
  }
}

export function unmountSmallDisk(dir: string) {
  execFileSync('umount', [dir]);
  rmdirSync(dir);
}

/** Fills the disk with one file until the file system says no more. */
export function fillDisk(file: string) {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}
