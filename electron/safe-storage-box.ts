import { createKeyFileSecretBox, type SecretBox } from './core/providers/connections/secret-box';

/** The part of Electron's `safeStorage` the box uses (passed in, so this file needs no Electron to test). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(text: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means no keyring, i.e. a hard-coded key — no better than our key file. */
  getSelectedStorageBackend?(): string;
}

const PREFIX = 'os1.';

/**
 * The desktop's SecretBox: connection credentials sealed by the OS keychain (DPAPI, Keychain, libsecret/kwallet)
 * through safeStorage. Where the system offers no keychain it falls back to the data folder's key file and says so;
 * secrets sealed earlier by the key file stay readable, so switching boxes loses no connection.
 */
export function createSafeStorageSecretBox(safeStorage: SafeStorageLike, dataDir: string): SecretBox {
  const keyFile = createKeyFileSecretBox(dataDir);
  const keychain = () => safeStorage.isEncryptionAvailable() && safeStorage.getSelectedStorageBackend?.() !== 'basic_text';
  return {
    encrypt: (text) => (keychain() ? PREFIX + safeStorage.encryptString(text).toString('base64') : keyFile.encrypt(text)),
    decrypt: (blob) => (blob.startsWith(PREFIX) ? safeStorage.decryptString(Buffer.from(blob.slice(PREFIX.length), 'base64')) : keyFile.decrypt(blob)),
    describe: () => (keychain() ? { kind: 'os-keychain', location: null } : keyFile.describe!()),
  };
}
