import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APP_SCHEME_PRIVILEGES,
  CONTENT_SECURITY_POLICY,
  START_URL,
  contentTypeFor,
  externalHttpsUrl,
  isAppUrl,
  refuseCommand,
  resolveAppFile,
  secureWebPreferences,
  withCsp,
} from './security';

const DIST = path.resolve('/srv/shipdesk/dist');

describe('which pages count as ShipDesk', () => {
  it('accepts only app://shipdesk/ pages', () => {
    expect(isAppUrl(START_URL)).toBe(true);
    expect(isAppUrl('app://shipdesk/orders?page=2#top')).toBe(true);
  });

  it('rejects look-alikes and everything else', () => {
    for (const url of [
      'app://shipdesk.evil.com/',
      'app://shipdesk:8080/',
      'app://other/',
      'https://shipdesk/',
      'file:///C:/shipdesk/index.html',
      'http://localhost:5173/',
      'about:blank',
      'javascript:alert(1)',
      '',
      'app:shipdesk',
      null,
      undefined,
      42,
    ]) {
      expect(isAppUrl(url), String(url)).toBe(false);
    }
  });
});

describe('links that may open in the system browser', () => {
  it('lets a parsed https link through, normalised', () => {
    expect(externalHttpsUrl('https://www.cdek.ru/ru/tracking?order_id=1')).toBe('https://www.cdek.ru/ru/tracking?order_id=1');
    expect(externalHttpsUrl('HTTPS://Example.COM')).toBe('https://example.com/');
  });

  it('never lets through other schemes or garbage', () => {
    for (const url of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-settings:', 'app://shipdesk/', 'https:', ' not a url', null]) {
      expect(externalHttpsUrl(url), String(url)).toBeNull();
    }
  });
});

describe('serving files of the built renderer', () => {
  it('serves index.html for the root and for client-side routes', () => {
    expect(resolveAppFile(DIST, 'app://shipdesk/')).toEqual({ ok: true, file: path.join(DIST, 'index.html') });
    expect(resolveAppFile(DIST, 'app://shipdesk/orders/42')).toEqual({ ok: true, file: path.join(DIST, 'index.html') });
  });

  it('serves assets from inside dist/', () => {
    expect(resolveAppFile(DIST, 'app://shipdesk/assets/index-abc123.js?v=1')).toEqual({ ok: true, file: path.join(DIST, 'assets', 'index-abc123.js') });
    expect(resolveAppFile(DIST, 'app://shipdesk/assets/%D0%BB%D0%BE%D0%B3%D0%BE.svg')).toEqual({ ok: true, file: path.join(DIST, 'assets', 'лого.svg') });
  });

  it('refuses every way of climbing out of dist/', () => {
    for (const url of [
      'app://shipdesk/..%2f..%2fetc%2fpasswd',
      'app://shipdesk/%2e%2e%2fsecret.txt',
      'app://shipdesk/assets/..%2f..%2fsecret.txt',
      'app://shipdesk/..%5c..%5csecret.txt',
      'app://shipdesk/assets\\..\\..\\secret.txt',
      'app://shipdesk/C:%5cWindows%5cwin.ini',
      'app://shipdesk/index.html%00.png',
      'app://shipdesk/index.html:stream.js',
      'app://shipdesk/%E0%A4%A.js',
    ]) {
      expect(resolveAppFile(DIST, url), url).toEqual({ ok: false, status: 403 });
    }
  });

  it('keeps plain ../ inside dist/, because URL parsing already collapses it', () => {
    expect(resolveAppFile(DIST, 'app://shipdesk/../../etc/passwd.txt')).toEqual({ ok: true, file: path.join(DIST, 'etc', 'passwd.txt') });
  });

  it('refuses requests for other hosts or schemes', () => {
    expect(resolveAppFile(DIST, 'app://other/index.html')).toEqual({ ok: false, status: 403 });
    expect(resolveAppFile(DIST, 'file:///srv/shipdesk/dist/index.html')).toEqual({ ok: false, status: 403 });
  });

  it('names content types itself so nothing is sniffed into script', () => {
    expect(contentTypeFor('a/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('a/app.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('a/font.woff2')).toBe('font/woff2');
    expect(contentTypeFor('a/unknown.bin')).toBe('application/octet-stream');
  });
});

describe('the window’s hardening', () => {
  it('turns on every item of the Electron security checklist', () => {
    expect(secureWebPreferences('/app/preload.cjs')).toEqual({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
  });

  it('allows only our own scripts, styles, images and connections', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:",
    );
  });

  it('gives app:// a real origin without letting it bypass the policy', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ standard: true, secure: true });
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('bypassCSP');
  });

  it('replaces any policy a response brings with ours', () => {
    const headers = withCsp({ 'Content-Security-Policy': ["script-src 'unsafe-eval'"], 'CONTENT-SECURITY-POLICY': ['*'], 'Content-Type': ['text/html'] });
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    expect(withCsp(undefined)).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });
});

describe('which IPC commands reach the core', () => {
  it('lets a named command from our page through', () => {
    expect(refuseCommand('app://shipdesk/index.html', 'orders.list')).toBeNull();
  });

  it('refuses a command from another page with 040101 Unauthorized', () => {
    expect(refuseCommand('https://evil.example/', 'orders.list')).toEqual({ ok: false, error: { code: '040101', message: 'Unauthorized' } });
    expect(refuseCommand(undefined, 'orders.list')).toEqual({ ok: false, error: { code: '040101', message: 'Unauthorized' } });
  });

  it('refuses a command without a string name with a field error', () => {
    expect(refuseCommand('app://shipdesk/index.html', 7)).toEqual({
      ok: false,
      error: { code: '040002', message: 'Validation error', errors: [{ field: 'name', message: 'The command name must be a non-empty string' }] },
    });
  });
});
