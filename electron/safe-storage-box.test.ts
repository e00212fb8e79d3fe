import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyFileSecretBox } from './core/providers/connections/secret-box';
import { createSafeStorageSecretBox, type SafeStorageLike } from './safe-storage-box';

/** A stand-in keychain: reversible, keyed by a secret only it knows, like the OS one. */
function fakeKeychain(available = true, backend = 'gnome_libsecret'): SafeStorageLike {
  const mask = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  return {
    isEncryptionAvailable: () => available,
    encryptString: (text) => mask(Buffer.from(text, 'utf8')),
    decryptString: (encrypted) => mask(encrypted).toString('utf8'),
    getSelectedStorageBackend: () => backend,
  };
}

describe('the desktop secret box', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipdesk-box-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('seals credentials with the OS keychain and says so', () => {
    const box = createSafeStorageSecretBox(fakeKeychain(), dataDir());
    const sealed = box.encrypt('{"clientSecret":"s3cret"}');
    expect(sealed).toMatch(/^os1\./);
    expect(sealed).not.toContain('s3cret');
    expect(box.decrypt(sealed)).toBe('{"clientSecret":"s3cret"}');
    expect(box.describe?.()).toEqual({ kind: 'os-keychain', location: null });
  });

  it('still reads credentials sealed earlier by the key file', () => {
    const dir = dataDir();
    const old = createKeyFileSecretBox(dir).encrypt('legacy');
    expect(createSafeStorageSecretBox(fakeKeychain(), dir).decrypt(old)).toBe('legacy');
  });

  it('without a real keychain (none, or Linux basic_text) it uses the key file and reports that', () => {
    for (const keychain of [fakeKeychain(false), fakeKeychain(true, 'basic_text')]) {
      const dir = dataDir();
      const box = createSafeStorageSecretBox(keychain, dir);
      expect(box.encrypt('x')).toMatch(/^v1\./);
      expect(box.describe?.()).toEqual({ kind: 'key-file', location: join(dir, 'secrets.key') });
    }
  });
});
