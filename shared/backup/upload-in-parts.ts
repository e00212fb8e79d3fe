import type { Result } from '../result';
import { BACKUP_UPLOAD_PART_BYTES, type BackupFile, type BackupUploadPart, type BackupUploadState } from '../contract/settings';

export interface PartSource {
  /** The file's size in bytes. */
  size: number;
  /** Its bytes from `start` to `end` (exclusive), as base64. */
  read(start: number, end: number): Promise<string>;
}

/**
 * Sends a database file to `backup.upload` part by part, so that neither the window nor the core holds it
 * whole; `progress` hears the bytes sent so far. Answers the kept backup, or the first refusal.
 */
export async function uploadInParts(
  file: PartSource,
  name: string,
  send: (part: BackupUploadPart) => Promise<Result<BackupUploadState>>,
  progress: (sent: number) => void = () => {},
): Promise<Result<BackupFile>> {
  let uploadId: string | undefined;
  for (let offset = 0; ; offset += BACKUP_UPLOAD_PART_BYTES) {
    const end = Math.min(offset + BACKUP_UPLOAD_PART_BYTES, file.size);
    const done = end === file.size;
    const answer = await send({ uploadId, name, offset, base64: await file.read(offset, end), done });
    if (!answer.ok) return answer;
    progress(answer.value.received);
    uploadId = answer.value.uploadId;
    if (done) return { ok: true, value: answer.value.backup! };
  }
}
