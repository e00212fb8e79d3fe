/**
 * Code 128 (ISO/IEC 15417) for the order barcode: printable ASCII in code set B, runs of four or more
 * digits packed in pairs in code set C (delivery services' barcodes are mostly long digit strings,
 * which C halves). Written here because the whole algorithm is a table and a checksum.
 */

/** Bar and space widths (in modules, bar first) of the symbol values 0–105; 106 is the stop pattern. */
// prettier-ignore
const patterns: readonly string[] = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232', '2331112',
];

const startB = 104;
const startC = 105;
const toB = 100; // in set C
const toC = 99; // in set B
const stop = 106;

const isDigit = (c: string) => c >= '0' && c <= '9';
const printable = /^[\x20-\x7e]*$/;

/** Length of the run of digits starting at `from`. */
function digitRun(text: string, from: number): number {
  let end = from;
  while (end < text.length && isDigit(text[end])) end++;
  return end - from;
}

/**
 * The symbol values of `text`, start and checksum included, stop excluded; null when it holds a
 * character Code 128 B cannot carry (anything outside printable ASCII) or is empty.
 */
export function code128Values(text: string): number[] | null {
  if (text === '' || !printable.test(text)) return null;
  const values: number[] = [];
  let set: 'B' | 'C' | undefined;
  for (let i = 0; i < text.length; ) {
    const run = digitRun(text, i);
    // C pays off for four digits or more, or for a whole text that is an even number of digits.
    const useC = run >= 4 || (run === text.length && run % 2 === 0);
    if (useC) {
      if (set === undefined) values.push(startC);
      else if (set === 'B') values.push(toC);
      set = 'C';
      const pairs = Math.floor(run / 2);
      for (let p = 0; p < pairs; p++, i += 2) values.push(Number(text.slice(i, i + 2)));
      continue;
    }
    if (set === undefined) values.push(startB);
    else if (set === 'C') values.push(toB);
    set = 'B';
    values.push(text.charCodeAt(i) - 32);
    i++;
  }
  const checksum = values.reduce((sum, value, position) => sum + value * Math.max(position, 1), 0) % 103;
  values.push(checksum);
  return values;
}

/** Alternating bar and space widths in modules for the whole symbol (start to stop, no quiet zone); null as above. */
export function code128Widths(text: string): number[] | null {
  const values = code128Values(text);
  if (!values) return null;
  return [...values, stop].flatMap((value) => [...patterns[value]].map(Number));
}
