import { ErrorCode, type FieldError } from '../../../shared/errors';
import { AppError } from '../errors';

/**
 * The `filter` query parameter of the list operations (wire conventions, "Paged lists"):
 *
 *   filter     = condition *( ";" condition )          no trailing ";"
 *   condition  = field op value
 *   field      = name *( "." name ), name = [A-Za-z_][A-Za-z0-9_]*
 *   op         = "=" / ">" / "<" / "%"                  "%" = substring
 *   value      = scalar / "[" scalar *( "," scalar ) "]"   arrays only with "="
 *   scalar     = quoted / bare
 *   quoted     = "'" … "'" / '"' … '"'                   backslash escapes the next character
 *   bare       = text up to ";" (or "," / "]" inside an array), trimmed, not empty; a bare -?digits[.digits] is a number
 *
 * Whitespace around fields, operators and values is ignored. Pure: no IO; errors are AppErrors
 * with the interface's codes (040010 invalid filter, 040011 field not filterable).
 */

export type FilterOp = '=' | '>' | '<' | '%';

/** A literal as written: numbers keep their text (`007` stays `007` for a text field). */
export type FilterScalar = { kind: 'number'; text: string } | { kind: 'string'; text: string };

export interface FilterCondition {
  field: string;
  op: FilterOp;
  /** One value, or several for `field=[a,b,c]` (the condition holds when any matches). */
  values: FilterScalar[];
  array: boolean;
}

export const filterLimits = { length: 10_000, conditions: 50, arrayItems: 1000 } as const;

const numberText = /^-?\d+(\.\d+)?$/;
const nameStart = /[A-Za-z_]/;
const nameChar = /[A-Za-z0-9_]/;
const ops = new Set(['=', '>', '<', '%']);

export const invalidFilter = (description: string, errors?: FieldError[]) =>
  new AppError(400, { code: ErrorCode.invalidFilter, message: 'Invalid filter', description, ...(errors ? { errors } : {}) });

export const fieldNotFilterable = (field: string, allowed: string[]) =>
  new AppError(400, {
    code: ErrorCode.fieldNotFilterable,
    message: 'Field is not filterable',
    description: `The list cannot be filtered by ${field}; filterable fields: ${allowed.join(', ')}`,
    errors: [{ field: 'filter', message: `${field} is not filterable` }],
  });

const scalarOf = (text: string, quoted: boolean): FilterScalar =>
  !quoted && numberText.test(text) ? { kind: 'number', text } : { kind: 'string', text };

/** Parses a filter string into conditions. Empty (or blank) means no conditions. */
export function parseFilter(input: string): FilterCondition[] {
  if (input.length > filterLimits.length) throw invalidFilter(`The filter must be at most ${filterLimits.length} characters`);
  if (input.trim() === '') return [];
  const s = input;
  let i = 0;
  const fail = (what: string): never => {
    throw invalidFilter(`${what} at position ${i + 1} of the filter`);
  };
  const skipSpace = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };

  const quoted = (): string => {
    const quote = s[i++];
    let text = '';
    while (i < s.length && s[i] !== quote) {
      if (s[i] === '\\') {
        i++;
        if (i >= s.length) break;
      }
      text += s[i++];
    }
    if (i >= s.length) fail(`Unterminated string (missing closing ${quote})`);
    i++; // closing quote
    return text;
  };

  const bare = (stops: string): string => {
    const start = i;
    while (i < s.length && !stops.includes(s[i])) {
      if (s[i] === '[' || s[i] === ']') fail(`Unexpected "${s[i]}" in a value (quote the value)`);
      i++;
    }
    const text = s.slice(start, i).trim();
    if (text === '') fail('Missing value');
    return text;
  };

  const scalar = (stops: string): FilterScalar => {
    skipSpace();
    if (s[i] === "'" || s[i] === '"') return scalarOf(quoted(), true);
    return scalarOf(bare(stops), false);
  };

  const conditions: FilterCondition[] = [];
  for (;;) {
    skipSpace();
    // field
    if (i >= s.length || !nameStart.test(s[i])) fail('Expected a field name');
    const fieldStart = i;
    for (;;) {
      while (i < s.length && nameChar.test(s[i])) i++;
      if (s[i] === '.' && i + 1 < s.length && nameStart.test(s[i + 1])) {
        i++;
        continue;
      }
      break;
    }
    const field = s.slice(fieldStart, i);
    skipSpace();
    // operator
    if (i >= s.length || !ops.has(s[i])) fail(`Expected an operator (=, >, <, %) after ${field}`);
    const op = s[i++] as FilterOp;
    if (i < s.length && ops.has(s[i])) fail(`Unknown operator ${op}${s[i]} (use =, >, < or %; quote a value that starts with one)`);
    skipSpace();
    // value
    let values: FilterScalar[];
    let array = false;
    if (s[i] === '[') {
      if (op !== '=') fail(`An array of values needs the = operator, not ${op}`);
      array = true;
      i++;
      values = [];
      for (;;) {
        values.push(scalar(',];'));
        if (values.length > filterLimits.arrayItems) fail(`An array may have at most ${filterLimits.arrayItems} values`);
        skipSpace();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === ']') {
          i++;
          break;
        }
        fail('Expected "," or "]" in the array');
      }
    } else {
      values = [scalar(';')];
    }
    skipSpace();
    conditions.push({ field, op, values, array });
    if (conditions.length > filterLimits.conditions) throw invalidFilter(`A filter may have at most ${filterLimits.conditions} conditions`);
    if (i >= s.length) break;
    if (s[i] !== ';') fail('Expected ";" between conditions');
    i++;
    skipSpace();
    if (i >= s.length) fail('A filter must not end with ";"');
  }
  return conditions;
}

const quote = (text: string) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
const formatScalar = (v: FilterScalar) => (v.kind === 'number' ? v.text : quote(v.text));

/** Writes conditions back as a filter string that parses to the same conditions. */
export function formatFilter(conditions: FilterCondition[]): string {
  return conditions
    .map((c) => `${c.field}${c.op}${c.array ? `[${c.values.map(formatScalar).join(',')}]` : formatScalar(c.values[0])}`)
    .join(';');
}

// -----------------------------------------------------------------------------------------------
// Binding conditions to the fields of a list.

/**
 * How a field of a list is filtered:
 * - `int` / `real`: numbers (a quoted number is accepted too); `flag`: 0/1, also true/false.
 * - `text`: compared without regard to case, ё = е; `key`: identifiers (ASCII, case-insensitive).
 */
export type FieldType = 'int' | 'real' | 'flag' | 'text' | 'key';

export interface FilterField {
  type: FieldType;
  /** Wire values are multiplied by this before comparing (rubles → kopecks). */
  scale?: number;
}

export type FilterFields = Record<string, FilterField>;

export interface BoundCondition<F extends FilterField = FilterField> {
  field: string;
  spec: F;
  op: FilterOp;
  /** Numbers for numeric fields; folded strings for text and key fields. */
  values: (number | string)[];
}

/** Lower case with ё → е: how text and keys are compared. */
export const fold = (text: string) => text.toLowerCase().replaceAll('ё', 'е');

const numeric = (t: FieldType) => t === 'int' || t === 'real' || t === 'flag';

function bindValue(field: string, spec: FilterField, v: FilterScalar): number | string {
  if (!numeric(spec.type)) return fold(v.text);
  let text = v.text.trim();
  if (spec.type === 'flag' && /^(true|false)$/i.test(text)) text = /^true$/i.test(text) ? '1' : '0';
  if (!numberText.test(text)) throw invalidFilter(`${field} takes numbers; "${v.text}" is not one`, [{ field: 'filter', message: `${field}: "${v.text}" is not a number` }]);
  const n = Number(text) * (spec.scale ?? 1);
  return spec.scale ? Math.round(n) : n;
}

/** Checks every condition against the list's filterable fields and types its values. */
export function bindFilter<F extends FilterField>(conditions: FilterCondition[], fields: Record<string, F>): BoundCondition<F>[] {
  return conditions.map((c) => {
    const spec = Object.hasOwn(fields, c.field) ? fields[c.field] : undefined;
    if (!spec) throw fieldNotFilterable(c.field, Object.keys(fields));
    if (c.op === '%' && numeric(spec.type)) {
      throw invalidFilter(`${c.field} is a number: use =, > or <, not %`, [{ field: 'filter', message: `${c.field} does not take %` }]);
    }
    return { field: c.field, spec, op: c.op, values: c.values.map((v) => bindValue(c.field, spec, v)) };
  });
}

/** Parses and binds in one step: the filter of a request, checked against the list. */
export const compileFilter = <F extends FilterField>(input: string | null | undefined, fields: Record<string, F>) =>
  bindFilter(parseFilter(input ?? ''), fields);

// -----------------------------------------------------------------------------------------------
// In memory (lists that are not tables: providers, statuses, the small numbered lists).

function holds(value: unknown, c: BoundCondition): boolean {
  if (value === null || value === undefined) return false;
  let v: number | string;
  if (numeric(c.spec.type)) v = typeof value === 'boolean' ? Number(value) : Number(value) * (c.spec.scale ?? 1);
  else v = fold(String(value));
  switch (c.op) {
    case '=':
      return c.values.some((x) => x === v);
    case '>':
      return v > c.values[0];
    case '<':
      return v < c.values[0];
    case '%':
      return (v as string).includes(c.values[0] as string);
  }
}

/**
 * A predicate over records for bound conditions; `read` gives a record's value(s) for a field
 * (several for a field that also matches another one, like a point's city and community).
 */
export function filterPredicate<T>(conditions: BoundCondition[], read: (record: T, field: string) => unknown): (record: T) => boolean {
  return (record) =>
    conditions.every((c) => {
      const value = read(record, c.field);
      return Array.isArray(value) ? value.some((v) => holds(v, c)) : holds(value, c);
    });
}
