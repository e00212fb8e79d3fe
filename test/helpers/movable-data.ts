import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowserMode } from './browser';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/**
 * A Russian browser-mode window over a data folder of its own that a test moves away under it (the database file
 * gone, as when the folder is deleted or renamed) and puts back. Opened before the file's tests; closed after them,
 * the folder removed.
 */
export function windowOverMovableData(prefix: string) {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const dataDir = join(root, 'data');
  const movedTo = join(root, 'moved');
  const opened: { dataDir: string; session: Session; moveAway: () => void; putBack: () => void } = {
    dataDir,
    session: undefined as unknown as Session,
    moveAway: () => renameSync(dataDir, movedTo),
    putBack: () => renameSync(movedTo, dataDir),
  };
  beforeAll(async () => {
    mkdirSync(dataDir);
    opened.session = await openBrowserMode({ locale: 'ru-RU', dataDir });
  });
  afterAll(async () => {
    await opened.session?.close();
    rmSync(root, { recursive: true, force: true });
  });
  return opened;
}
