import { describe, expect, it } from 'vitest';
import { createFormatters, parseDay } from './format';

describe('dates and money in the app\'s language', () => {
  it('writes a delivery day and rubles the Russian way', () => {
    const ru = createFormatters('ru');
    expect(ru.date('2026-11-27')).toBe('27.11.2026');
    expect(ru.money(2499.9).replace(/\s/g, ' ')).toBe('2 499,90 ₽');
    expect(ru.date('не дата')).toBe('не дата');
    expect(ru.cellNumber(990.5)).toBe('990,5');
    expect(ru.cellNumber(79161234567)).toBe('79161234567');
    expect(createFormatters('en').cellNumber(990.5)).toBe('990.5');
  });

  it('reads a typed day in the Russian or the ISO form, and nothing that is not a real day', () => {
    expect(parseDay('27.11.2026')).toBe('2026-11-27');
    expect(parseDay('1.2.2026')).toBe('2026-02-01');
    expect(parseDay('2026-11-27')).toBe('2026-11-27');
    expect(parseDay('31.02.2026')).toBeNull();
    expect(parseDay('27.11')).toBeNull();
  });
});
