import { parseMoment } from './moment';

describe('dates in status paths and queries', () => {
  it('reads timestamps with an offset, Z, a compact offset, and the + a query string turned into a space', () => {
    const expected = Date.parse('2026-03-01T07:15:17Z');
    for (const text of ['2026-03-01T10:15:17+03:00', '2026-03-01T07:15:17Z', '2026-03-01T10:15:17+0300', '2026-03-01T10:15:17 03:00']) {
      expect(parseMoment(text)).toBe(expected);
    }
  });

  it('reads a calendar date as the start of that day on the shop\'s clock', () => {
    expect(parseMoment('2026-03-01')).toBe(new Date(2026, 2, 1).getTime());
  });

  it.each(['2026-02-30', '2026-02-30T10:00:00Z', '2026-13-01', 'yesterday', '1709280000', ''])('refuses %s', (text) => {
    expect(parseMoment(text)).toBeNaN();
  });
});
