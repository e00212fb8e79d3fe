import { nextClientNumber, numberAfter } from './next-number';

describe('the next order number offered in a new order', () => {
  it('counts the last digits on, keeping the prefix and the width', () => {
    expect(numberAfter('1005')).toBe('1006');
    expect(numberAfter('ИМ-0099')).toBe('ИМ-0100');
    expect(numberAfter('999')).toBe('1000');
    expect(numberAfter('2026/17-A')).toBeUndefined();
    expect(numberAfter('12345678901234567890')).toBe('12345678901234567891');
  });

  it('follows the newest order\'s series from its highest number', () => {
    expect(nextClientNumber(['1003', '1007', '1002'])).toBe('1008');
    expect(nextClientNumber(['ИМ-12', 'ОПТ-900', 'ИМ-15'])).toBe('ИМ-16');
    expect(nextClientNumber(['без номера', '1007'])).toBeUndefined();
    expect(nextClientNumber(['без номера'])).toBeUndefined();
  });

  it('offers a brand-new shop its first number', () => {
    expect(nextClientNumber([])).toBe('1001');
  });
});
