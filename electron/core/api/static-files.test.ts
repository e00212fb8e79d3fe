import { join } from 'node:path';
import { resolveInside } from './static-files';

describe('files of the web UI', () => {
  it('are found under the root whether or not it ends with a separator (browser mode\'s default root does)', () => {
    for (const root of ['/srv/shipdesk/dist', '/srv/shipdesk/dist/']) {
      expect(resolveInside(root, '/index.html')).toBe(join('/srv/shipdesk/dist', 'index.html'));
      expect(resolveInside(root, '/assets/app.js')).toBe(join('/srv/shipdesk/dist', 'assets', 'app.js'));
    }
  });

  it('never leave the root', () => {
    for (const root of ['/srv/shipdesk/dist', '/srv/shipdesk/dist/']) {
      expect(resolveInside(root, '/../secret.txt')).toBeUndefined();
      expect(resolveInside(root, '/%2e%2e/secret.txt')).toBeUndefined();
      expect(resolveInside(root, '/../dist-other/x.js')).toBeUndefined();
      expect(resolveInside(root, '/a%00b')).toBeUndefined();
      expect(resolveInside(root, '/%E0%A4%A')).toBeUndefined();
    }
  });
});
