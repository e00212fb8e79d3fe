import { compileFormat, example, hhmm, isoDate, parseWithFormat } from './php-date';

const date = (text: string, format: string) => {
  const p = parseWithFormat(text, compileFormat(format));
  return p && isoDate(p);
};
const time = (text: string, format: string) => {
  const p = parseWithFormat(text, compileFormat(format));
  return p && hhmm(p);
};

describe('PHP date() formats of columnSettings', () => {
  it.each([
    ['25.12.2026', 'd.m.Y', '2026-12-25'],
    ['5.3.2026', 'j.n.Y', '2026-03-05'],
    ['05.03.2026', 'j.n.Y', '2026-03-05'],
    ['2026-03-05', 'Y-m-d', '2026-03-05'],
    ['05/03/26', 'd/m/y', '2026-03-05'],
    ['05 мар 2026', 'd M Y', '2026-03-05'],
    ['March 5, 2026', 'F j, Y', '2026-03-05'],
    ['2026-03-05 14:30', 'Y-m-d H:i', '2026-03-05'],
  ])('%s in %s is %s', (text, format, expected) => {
    expect(date(text, format)).toBe(expected);
  });

  it.each([
    ['09:30', 'H:i', '09:30'],
    ['9:30', 'G:i', '09:30'],
    ['9:30', 'H:i', '09:30'],
    ['18:00:00', 'H:i:s', '18:00'],
    ['2:15 PM', 'g:i A', '14:15'],
    ['12:00 am', 'h:i a', '00:00'],
  ])('%s in %s is %s', (text, format, expected) => {
    expect(time(text, format)).toBe(expected);
  });

  it('refuses what is not in the format or is no real date', () => {
    expect(date('2026-03-05', 'd.m.Y')).toBeUndefined();
    expect(date('31.02.2026', 'd.m.Y')).toBeUndefined();
    expect(time('25:00', 'H:i')).toBeUndefined();
    expect(time('09.30', 'H:i')).toBeUndefined();
  });

  it('knows which formats can name a date or a time, and shows an example', () => {
    expect(compileFormat('d.m.Y').hasDate).toBe(true);
    expect(compileFormat('H:i').hasDate).toBe(false);
    expect(compileFormat('H:i').hasTime).toBe(true);
    expect(() => compileFormat('d.m.Q')).toThrow(/"Q".*not a supported PHP date token/);
    expect(example(compileFormat('d.m.Y'))).toBe('25.12.2026');
    expect(example(compileFormat('H:i'))).toBe('09:30');
  });
});
