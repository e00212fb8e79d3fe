import { code128Values, code128Widths } from './code128';

/** A scanner's reading of the widths: symbol patterns back to text, checksum verified. */
function scan(widths: number[]): string {
  const symbols: string[] = [];
  for (let i = 0; i < widths.length - 7; i += 6) symbols.push(widths.slice(i, i + 6).join(''));
  expect(widths.slice(-7).join('')).toBe('2331112');
  const table = patternTable();
  const values = symbols.map((s) => {
    const value = table.get(s);
    if (value === undefined) throw new Error(`unknown pattern ${s}`);
    return value;
  });
  const checksum = values.pop()!;
  expect(values.reduce((sum, v, i) => sum + v * Math.max(i, 1), 0) % 103).toBe(checksum);
  let set = values[0] === 105 ? 'C' : 'B';
  let text = '';
  for (const v of values.slice(1)) {
    if (set === 'C' && v === 100) set = 'B';
    else if (set === 'B' && v === 99) set = 'C';
    else text += set === 'C' ? String(v).padStart(2, '0') : String.fromCharCode(v + 32);
  }
  return text;
}

/** Pattern → value, read from the encoder's own output of every set B character and every C pair. */
function patternTable(): Map<string, number> {
  const table = new Map<string, number>();
  const learn = (text: string) => {
    const values = code128Values(text)!;
    const widths = code128Widths(text)!;
    values.forEach((v, i) => table.set(widths.slice(i * 6, i * 6 + 6).join(''), v));
  };
  for (let c = 32; c <= 126; c++) learn(String.fromCharCode(c));
  for (let n = 0; n <= 99; n++) learn(String(n).padStart(2, '0'));
  learn('a1234'); // the switch to C
  learn('1234a'); // the switch to B
  return table;
}

describe('Code 128 barcodes', () => {
  it('encodes text in set B with the standard checksum (the "Wikipedia" example gives 88)', () => {
    const values = code128Values('Wikipedia')!;
    expect(values[0]).toBe(104);
    expect(values.slice(1, -1)).toEqual([...'Wikipedia'].map((c) => c.charCodeAt(0) - 32));
    expect(values.at(-1)).toBe(88);
  });

  it('packs an even run of digits in pairs in set C', () => {
    expect(code128Values('123456')).toEqual([105, 12, 34, 56, 44]);
    expect(code128Values('000000012345')).toHaveLength(1 + 6 + 1);
  });

  it('switches between B and C inside one code and a scanner reads the text back', () => {
    for (const text of ['SBE000000123', '12345', 'AB-1234567-Z', '7', 'x', '0042', 'CDEK 1 2 3', '1234567890123']) {
      const widths = code128Widths(text)!;
      expect(scan(widths)).toBe(text);
      // every symbol is 11 modules wide, the stop 13
      expect(widths.reduce((a, b) => a + b, 0)).toBe((code128Values(text)!.length) * 11 + 13);
    }
  });

  it('gives every symbol value its own 11-module pattern, as the standard prints them', () => {
    const table = patternTable();
    expect(table.size).toBeGreaterThanOrEqual(103); // 0–100, the two start codes, and checksums beyond
    expect(new Set(table.values()).size).toBe(table.size);
    for (const pattern of table.keys()) expect([...pattern].reduce((a, b) => a + Number(b), 0)).toBe(11);
    // start B, 'A' (value 33), checksum (104 + 33) % 103 = 34, stop
    expect(code128Widths('A')!.join('')).toBe(['211214', '111323', '131123', '2331112'].join(''));
  });

  it('refuses what it cannot carry instead of drawing a wrong code', () => {
    expect(code128Values('')).toBeNull();
    expect(code128Widths('Штрихкод')).toBeNull();
    expect(code128Widths('tab\there')).toBeNull();
  });
});
