import { createTestApp } from '../test/helpers/test-app';
import { desktopApiPort, startLocalApi } from './local-api';

describe('the desktop app\'s local API port', () => {
  it('is 4318 unless SHIPDESK_API_PORT names a valid port', () => {
    expect(desktopApiPort({})).toBe(4318);
    expect(desktopApiPort({ SHIPDESK_API_PORT: '5000' })).toBe(5000);
    expect(desktopApiPort({ SHIPDESK_API_PORT: '0' })).toBe(0);
    for (const bad of ['', ' ', 'abc', '70000', '-1', '12.5']) expect(desktopApiPort({ SHIPDESK_API_PORT: bad })).toBe(4318);
  });
});

describe('the local API beside the desktop window', () => {
  it('serves the delivery interface to the token\'s holder, but not the window\'s commands (settings, token)', async () => {
    const test = await createTestApp();
    const token = (await test.app.services.companies.desktop()).apiToken;
    const api = await startLocalApi(test.app, { port: 0, windowTransport: false });
    try {
      const headers = { Authorization: token, 'Content-Type': 'application/json' };
      const providers = await fetch(`${api.base}/v1/lists/providers`, { headers });
      expect(providers.status).toBe(200);
      const environment = await test.app.dispatch('settings.environment', test.shop, {});
      expect(environment).toMatchObject({ ok: true, value: { localApiUrl: `${api.base}/v1` } });
      const settings = await fetch(`${api.base}/app/commands/settings.get`, { method: 'POST', headers, body: '{}' });
      expect(settings.status).toBe(404);
      expect(await settings.text()).not.toContain(token);
    } finally {
      await api.close();
      await test.close();
    }
  });
});
