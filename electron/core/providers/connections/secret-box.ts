import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../../paths';

/**
 * Encrypts connection credentials at rest. The core never imports Electron: the desktop shell injects a box
 * backed by safeStorage (the OS keychain); browser mode and the tests use the key-file box below.
 */
export interface SecretBox {
  encrypt(text: string): string;
  decrypt(blob: string): string;
  /** Where the key lives, for the settings to tell the user honestly (a box without it is shown as "other"). */
  describe?(): SecretStorageInfo;
}

/** The OS keychain (Electron's safeStorage) or a key file in the data folder (browser mode, tests). */
export interface SecretStorageInfo {
  kind: 'os-keychain' | 'key-file';
  /** The key file, when it is one. */
  location: string | null;
}

export const SECRET_KEY_FILE = 'secrets.key';
const PREFIX = 'v1.';

/** The key file's 32 bytes, created (owner-only) on first use. */
function loadKey(file: string): Buffer {
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} is not a ShipDesk secrets key (expected 32 bytes)`);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

/**
 * AES-256-GCM keyed by `secrets.key` in the data folder. It keeps the secrets out of the database file
 * (a copied database alone does not reveal them); it is not a keychain: whoever reads the folder reads both.
 */
export function createKeyFileSecretBox(dataDir: string, fileName = SECRET_KEY_FILE): SecretBox {
  let key: Buffer | null = null;
  const getKey = () => {
    if (!key) {
      ensurePrivateDir(dataDir);
      key = loadKey(join(dataDir, fileName));
    }
    return key;
  };
  return {
    encrypt(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    describe: () => ({ kind: 'key-file', location: join(dataDir, fileName) }),
    decrypt(blob) {
      if (!blob.startsWith(PREFIX)) throw new Error('not a ShipDesk secret');
      const raw = Buffer.from(blob.slice(PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', getKey(), raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
