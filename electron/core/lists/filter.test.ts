import fc from 'fast-check';
import { AppError } from '../errors';
import {
  bindFilter, compileFilter, filterLimits, filterPredicate, fold, formatFilter, parseFilter, type FilterCondition, type FilterFields, type FilterScalar,
} from './filter';
import { pointFilterFields } from './list-fields';

const num = (text: string): FilterScalar => ({ kind: 'number', text });
const str = (text: string): FilterScalar => ({ kind: 'string', text });
const cond = (field: string, op: FilterCondition['op'], values: FilterScalar[], array = false): FilterCondition => ({ field, op, values, array });

/** The error code a call throws, or 'ok'. */
function codeOf(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.body.code;
    throw error;
  }
}

describe('filter grammar', () => {
  it('reads the examples of the wire conventions', () => {
    expect(parseFilter('city=Москва;providerKey=cdek;availableOperation=[2,3]')).toEqual([
      cond('city', '=', [str('Москва')]),
      cond('providerKey', '=', [str('cdek')]),
      cond('availableOperation', '=', [num('2'), num('3')], true),
    ]);
    expect(parseFilter('id=[1,2,3]')).toEqual([cond('id', '=', [num('1'), num('2'), num('3')], true)]);
    expect(parseFilter('name%экспресс')).toEqual([cond('name', '%', [str('экспресс')])]);
  });

  it('takes >, < with numbers and strings, and decimals', () => {
    expect(parseFilter('weightMax>1000;lat<55.75;name>А')).toEqual([
      cond('weightMax', '>', [num('1000')]),
      cond('lat', '<', [num('55.75')]),
      cond('name', '>', [str('А')]),
    ]);
  });

  it('keeps city names with spaces and hyphens whole, and ignores whitespace around the parts', () => {
    expect(parseFilter(' city = Ростов-на-Дону ; region=Республика Татарстан')).toEqual([
      cond('city', '=', [str('Ростов-на-Дону')]),
      cond('region', '=', [str('Республика Татарстан')]),
    ]);
  });

  it('reads quoted strings with either quote, keeping ; , ] and spaces inside, with backslash escapes', () => {
    expect(parseFilter(`name='ПВЗ; на углу';code="A,B]"`)).toEqual([cond('name', '=', [str('ПВЗ; на углу')]), cond('code', '=', [str('A,B]')])]);
    expect(parseFilter(String.raw`name='O\'Brien \\ Co'`)).toEqual([cond('name', '=', [str(String.raw`O'Brien \ Co`)])]);
    expect(parseFilter(`street=''`)).toEqual([cond('street', '=', [str('')])]);
  });

  it('keeps a quoted number a string, and a bare one a number with its digits', () => {
    expect(parseFilter(`postIndex='101000';code=007`)).toEqual([cond('postIndex', '=', [str('101000')]), cond('code', '=', [num('007')])]);
  });

  it('treats an empty filter as no conditions', () => {
    expect(parseFilter('')).toEqual([]);
    expect(parseFilter('   ')).toEqual([]);
  });

  it.each([
    ['city=Москва;', 'a trailing ;'],
    ['city=Москва;;id=1', 'an empty condition'],
    ['city=', 'a missing value'],
    ['city', 'a missing operator'],
    ['=Москва', 'a missing field'],
    ['id>=5', 'an operator that is not in the grammar'],
    ['id!=5', 'an operator that is not in the grammar'],
    ['id>[1,2]', 'an array with >'],
    ['name%[a]', 'an array with %'],
    ['id=[]', 'an empty array'],
    ['id=[1,[2]]', 'a nested array'],
    ['id=[1,2', 'an unclosed array'],
    ["name='abc", 'an unterminated string'],
    ["name='a'b", 'text after a quoted string'],
    ['city=Мо[сква', 'a bracket in a bare value'],
    ['1id=5', 'a field that does not start with a letter'],
    ['limits.=5', 'a dangling dot'],
  ])('refuses %s (%s) with 040010', (filter) => {
    expect(codeOf(() => parseFilter(filter))).toBe('040010');
  });

  it('bounds the size of a filter', () => {
    expect(codeOf(() => parseFilter(`name=${'a'.repeat(filterLimits.length)}`))).toBe('040010');
    expect(codeOf(() => parseFilter(`id=[${Array.from({ length: filterLimits.arrayItems + 1 }, (_, i) => i).join(',')}]`))).toBe('040010');
    expect(codeOf(() => parseFilter(Array.from({ length: filterLimits.conditions + 1 }, () => 'id=1').join(';')))).toBe('040010');
  });

  it('says where the filter went wrong', () => {
    try {
      parseFilter('city=Москва;id>=5');
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).body).toMatchObject({ code: '040010', message: 'Invalid filter', description: expect.stringMatching(/operator >=.*position 16/) });
    }
  });
});

describe('binding a filter to the fields of a list', () => {
  const fields: FilterFields = { id: { type: 'int' }, name: { type: 'text' }, providerKey: { type: 'key' }, cod: { type: 'flag' }, maxCod: { type: 'real', scale: 100 } };

  it('refuses a field the list cannot be filtered by with 040011, naming the ones it can', () => {
    try {
      bindFilter(parseFilter('worktime=1'), fields);
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).body).toMatchObject({ code: '040011', description: expect.stringContaining('id, name, providerKey, cod, maxCod') });
    }
    expect(codeOf(() => bindFilter(parseFilter('constructor=1'), fields))).toBe('040011');
    expect(codeOf(() => bindFilter(parseFilter('__proto__=1'), fields))).toBe('040011');
  });

  it('refuses text for a number field and % on a number field with 040010', () => {
    expect(codeOf(() => bindFilter(parseFilter('id=abc'), fields))).toBe('040010');
    expect(codeOf(() => bindFilter(parseFilter('id%1'), fields))).toBe('040010');
  });

  it('accepts quoted numbers for number fields, true/false for flags, and scales money to kopecks', () => {
    expect(bindFilter(parseFilter(`id='12';cod=true;maxCod<1500.5`), fields).map((c) => c.values)).toEqual([[12], [1], [150050]]);
  });

  it('folds text: lower case, ё as е', () => {
    expect(bindFilter(parseFilter('name=Королёв;providerKey=SANDBOX-Post'), fields).map((c) => c.values)).toEqual([['королев'], ['sandbox-post']]);
    expect(fold('ЁЛКА Ёж')).toBe('елка еж');
  });
});

describe('filtering records in memory', () => {
  const fields: FilterFields = { key: { type: 'key' }, name: { type: 'text' }, final: { type: 'flag' }, n: { type: 'int' } };
  const records = [
    { key: 'delivered', name: 'Вручён', final: true, n: 3 },
    { key: 'onWay', name: 'В пути', final: false, n: 1 },
    { key: 'lost', name: 'Утерян', final: true, n: null },
  ];
  const run = (filter: string) => records.filter(filterPredicate(compileFilter(filter, fields), (r, f) => (r as Record<string, unknown>)[f])).map((r) => r.key);

  it('matches like the SQL lists do', () => {
    expect(run('final=1')).toEqual(['delivered', 'lost']);
    expect(run('name=вручен')).toEqual(['delivered']);
    expect(run('key=[ONWAY,lost]')).toEqual(['onWay', 'lost']);
    expect(run('name%пут')).toEqual(['onWay']);
    expect(run('n>1')).toEqual(['delivered']);
    expect(run('n<5')).toEqual(['delivered', 'onWay']); // null matches nothing
    expect(run('final=0;n=1')).toEqual(['onWay']);
  });

  it('lets a field match several values of a record (a point city and its community)', () => {
    const points = [{ city: 'Москва', community: 'Зеленоград' }, { city: 'Москва', community: 'Тверской район' }];
    const match = filterPredicate(compileFilter('city=зеленоград', { city: { type: 'text' } }), (p: (typeof points)[number]) => [p.city, p.community]);
    expect(points.filter(match)).toEqual([points[0]]);
  });
});

// -------------------------------------------------------------------------------------------------
// Properties.

const filterCodes = new Set(['040010', '040011', '040012']);
const grammarPiece = fc.constantFrom(
  'city', 'providerKey', 'id', 'name', 'limits.maxWeight', 'worktime', 'x', '=', '>', '<', '%', '>=', ';', ',', '[', ']', "'", '"', '\\', ' ',
  'Москва', '12', '-3.5', '0', '.', 'true', 'ё', '\u0000', '\n',
);

describe('filter properties', () => {
  it('any text at all gives conditions or a filter error (040010/040011), never another failure', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.array(grammarPiece, { maxLength: 25 }).map((p) => p.join(''))), (text) => {
        try {
          compileFilter(text, pointFilterFields);
        } catch (error) {
          if (!(error instanceof AppError) || !filterCodes.has(error.body.code) || error.status !== 400) throw error;
        }
      }),
      { numRuns: 3000 },
    );
  });

  const field = fc.oneof(
    fc.constantFrom('city', 'providerKey', 'id', 'limits.maxWeight'),
    fc.tuple(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/), fc.array(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,5}$/), { maxLength: 2 })).map(([head, rest]) => [head, ...rest].join('.')),
  );
  const scalar: fc.Arbitrary<FilterScalar> = fc.oneof(
    fc.tuple(fc.boolean(), fc.nat({ max: 10_000_000 }), fc.option(fc.stringMatching(/^\d{1,4}$/), { nil: undefined })).map(([neg, int, frac]) =>
      num(`${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`),
    ),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map(str),
  );
  const condition: fc.Arbitrary<FilterCondition> = fc.oneof(
    fc.tuple(field, fc.constantFrom('=', '>', '<', '%') as fc.Arbitrary<FilterCondition['op']>, scalar).map(([f, op, v]) => cond(f, op, [v])),
    fc.tuple(field, fc.array(scalar, { minLength: 1, maxLength: 5 })).map(([f, values]) => cond(f, '=', values, true)),
  );

  it('a valid filter written back parses to the same conditions', () => {
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 6 }), (conditions) => {
        expect(parseFilter(formatFilter(conditions))).toEqual(conditions);
      }),
      { numRuns: 2000 },
    );
  });
});
