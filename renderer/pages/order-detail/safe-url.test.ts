import { safeHttpUrl } from './safe-url';

describe('tracking links', () => {
  it('opens web addresses of the delivery service', () => {
    expect(safeHttpUrl('https://www.cdek.ru/track?order=1')).toBe('https://www.cdek.ru/track?order=1');
    expect(safeHttpUrl(' http://example.com/t/1 ')).toBe('http://example.com/t/1');
  });

  it('refuses anything that could run code or reach local files', () => {
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>x</b>', '/relative/path', '', 'not a url']) {
      expect(safeHttpUrl(bad)).toBeNull();
    }
  });
});
