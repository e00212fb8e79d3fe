import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBrowserMode } from '../../electron/browser-mode';
import { silentLogger } from '../../electron/core/logger';

describe('settings.environment: what the settings page tells the user about secrets and the local API', () => {
  it('browser mode keeps secrets in the data folder key file and serves the local API where it listens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-env-'));
    const running = await startBrowserMode({ port: 0, dataDir, tokens: ['env-token-12345'] }, { log: silentLogger });
    try {
      const res = await fetch(`${running.base}/app/commands/settings.environment`, {
        method: 'POST',
        headers: { Authorization: `Session ${running.ownerSession}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(await res.json()).toEqual({
        ok: true,
        value: { secretStorage: { kind: 'key-file', location: join(dataDir, 'secrets.key') }, localApiUrl: `${running.base}/v1` },
      });
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a core that serves no local API says so (null), and a secret box that does not describe itself is "other"', async () => {
    const { createTestApp } = await import('../helpers/test-app');
    const { app, close } = await createTestApp({ secretBox: { encrypt: (t) => t, decrypt: (t) => t } });
    try {
      const ctx = await app.desktopContext();
      expect(await app.dispatch('settings.environment', ctx, {})).toEqual({ ok: true, value: { secretStorage: { kind: 'other', location: null }, localApiUrl: null } });
    } finally {
      await close();
    }
  });
});
