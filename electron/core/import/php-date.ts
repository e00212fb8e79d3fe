/**
 * Dates and times written in a PHP `date()` format (`d.m.Y`, `Y-m-d`, `H:i`, `H:i:s`, `j.n.y g:i A`…),
 * the way `columnSettings.dateFormat` / `timeFormat` describe the table. Cells the spreadsheet already
 * stores as dates or times (native Excel values) are taken as they are, whatever the format says.
 */

interface TokenSpec {
  pattern: string;
  field?: 'day' | 'month' | 'year' | 'year2' | 'hour' | 'hour12' | 'minute' | 'second' | 'meridiem' | 'monthName' | 'unix';
}

const monthNames: [RegExp, number][] = [
  [/^(jan|янв)/i, 1], [/^(feb|фев)/i, 2], [/^(mar|мар)/i, 3], [/^(apr|апр)/i, 4], [/^(may|мая|май)/i, 5], [/^(jun|июн)/i, 6],
  [/^(jul|июл)/i, 7], [/^(aug|авг)/i, 8], [/^(sep|сен)/i, 9], [/^(oct|окт)/i, 10], [/^(nov|ноя)/i, 11], [/^(dec|дек)/i, 12],
];

const tokens: Record<string, TokenSpec> = {
  d: { pattern: '(\\d{1,2})', field: 'day' },
  j: { pattern: '(\\d{1,2})', field: 'day' },
  m: { pattern: '(\\d{1,2})', field: 'month' },
  n: { pattern: '(\\d{1,2})', field: 'month' },
  M: { pattern: '([\\p{L}]{3,4})\\.?', field: 'monthName' },
  F: { pattern: '([\\p{L}]{3,})', field: 'monthName' },
  Y: { pattern: '(\\d{4})', field: 'year' },
  y: { pattern: '(\\d{2})', field: 'year2' },
  H: { pattern: '(\\d{1,2})', field: 'hour' },
  G: { pattern: '(\\d{1,2})', field: 'hour' },
  h: { pattern: '(\\d{1,2})', field: 'hour12' },
  g: { pattern: '(\\d{1,2})', field: 'hour12' },
  i: { pattern: '(\\d{2})', field: 'minute' },
  s: { pattern: '(\\d{2})', field: 'second' },
  A: { pattern: '(AM|PM|am|pm)', field: 'meridiem' },
  a: { pattern: '(AM|PM|am|pm)', field: 'meridiem' },
  D: { pattern: '[\\p{L}]{2,3}\\.?' },
  l: { pattern: '[\\p{L}]+' },
  U: { pattern: '(\\d{1,12})', field: 'unix' },
};

export interface CompiledFormat {
  format: string;
  regex: RegExp;
  fields: NonNullable<TokenSpec['field']>[];
  hasDate: boolean;
  hasTime: boolean;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiles a PHP date() format; throws a message naming the format when it cannot be used. */
export function compileFormat(format: string): CompiledFormat {
  let source = '';
  const fields: CompiledFormat['fields'] = [];
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === '\\' && i + 1 < format.length) {
      source += escapeRegex(format[++i]);
      continue;
    }
    const token = tokens[ch];
    if (token) {
      source += token.pattern;
      if (token.field) fields.push(token.field);
    } else if (/[A-Za-z]/.test(ch)) {
      throw new Error(`the format ${format} uses "${ch}", which is not a supported PHP date token (use d, j, m, n, M, F, Y, y, H, G, h, g, i, s, A)`);
    } else if (/\s/.test(ch)) {
      source += '\\s+';
    } else {
      source += escapeRegex(ch);
    }
  }
  const has = (...f: CompiledFormat['fields']) => f.some((x) => fields.includes(x));
  return {
    format,
    regex: new RegExp(`^\\s*${source}\\s*$`, 'iu'),
    fields,
    hasDate: has('unix') || (has('day') && has('month', 'monthName') && has('year', 'year2')),
    hasTime: has('unix') || (has('hour', 'hour12') && has('minute')),
  };
}

export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Reads text written in the format; undefined when it does not match or names no real date/time. */
export function parseWithFormat(text: string, format: CompiledFormat): DateParts | undefined {
  const m = format.regex.exec(text);
  if (!m) return undefined;
  const parts: DateParts = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  let hour12: number | undefined;
  let pm: boolean | undefined;
  for (let i = 0; i < format.fields.length; i++) {
    const raw = m[i + 1];
    const n = Number(raw);
    switch (format.fields[i]) {
      case 'day': parts.day = n; break;
      case 'month': parts.month = n; break;
      case 'monthName': {
        const found = monthNames.find(([re]) => re.test(raw));
        if (!found) return undefined;
        parts.month = found[1];
        break;
      }
      case 'year': parts.year = n; break;
      case 'year2': parts.year = 2000 + n; break;
      case 'hour': parts.hour = n; break;
      case 'hour12': hour12 = n; break;
      case 'minute': parts.minute = n; break;
      case 'second': parts.second = n; break;
      case 'meridiem': pm = raw.toLowerCase() === 'pm'; break;
      case 'unix': {
        const d = new Date(n * 1000);
        return fromUtcDate(d);
      }
    }
  }
  if (hour12 !== undefined) {
    if (hour12 < 1 || hour12 > 12) return undefined;
    parts.hour = (hour12 % 12) + (pm ? 12 : 0);
  }
  return validParts(parts) ? parts : undefined;
}

function validParts(p: DateParts): boolean {
  if (p.hour > 23 || p.minute > 59 || p.second > 59) return false;
  if (p.month < 1 || p.month > 12 || p.day < 1) return false;
  const daysInMonth = new Date(Date.UTC(p.year, p.month, 0)).getUTCDate();
  return p.day <= daysInMonth;
}

/**
 * A native spreadsheet date: exceljs gives the wall-clock time the cell shows as a Date whose UTC fields
 * are that time (Excel has no time zones).
 */
export function fromUtcDate(d: Date): DateParts {
  // Excel stores times as fractions of a day; round to the second so 09:29:59.9997 shows as 09:30:00.
  const rounded = new Date(Math.round(d.getTime() / 1000) * 1000);
  return {
    year: rounded.getUTCFullYear(),
    month: rounded.getUTCMonth() + 1,
    day: rounded.getUTCDate(),
    hour: rounded.getUTCHours(),
    minute: rounded.getUTCMinutes(),
    second: rounded.getUTCSeconds(),
  };
}

/** An Excel serial number (days since 1899-12-30, fractions for the time of day). */
export function fromExcelSerial(serial: number): DateParts {
  return fromUtcDate(new Date(Math.round((serial - 25569) * 86_400_000)));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export const isoDate = (p: DateParts) => `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
export const hhmm = (p: DateParts) => `${pad(p.hour)}:${pad(p.minute)}`;

/** An example value of the format, for error messages ("must be a date like 25.12.2026"). */
export function example(format: CompiledFormat): string {
  const p: DateParts = { year: 2026, month: 12, day: 25, hour: 9, minute: 30, second: 0 };
  let out = '';
  for (let i = 0; i < format.format.length; i++) {
    const ch = format.format[i];
    if (ch === '\\' && i + 1 < format.format.length) {
      out += format.format[++i];
      continue;
    }
    switch (ch) {
      case 'd': out += pad(p.day); break;
      case 'j': out += String(p.day); break;
      case 'm': out += pad(p.month); break;
      case 'n': out += String(p.month); break;
      case 'M': out += 'Dec'; break;
      case 'F': out += 'December'; break;
      case 'Y': out += String(p.year); break;
      case 'y': out += pad(p.year % 100); break;
      case 'H': out += pad(p.hour); break;
      case 'G': out += String(p.hour); break;
      case 'h': out += pad(p.hour); break;
      case 'g': out += String(p.hour); break;
      case 'i': out += pad(p.minute); break;
      case 's': out += pad(p.second); break;
      case 'A': out += 'AM'; break;
      case 'a': out += 'am'; break;
      case 'D': out += 'Fri'; break;
      case 'l': out += 'Friday'; break;
      case 'U': out += '1798191000'; break;
      default: out += ch;
    }
  }
  return out;
}
