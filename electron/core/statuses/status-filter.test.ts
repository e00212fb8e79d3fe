import { intervalFilterFields, statusFilter } from './status-filter';

const codeOf = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return (error as { body?: { code: string } }).body?.code;
  }
};

describe('the filter of the status lists', () => {
  it('takes the lists\' grammar and fields, and created as a date or timestamp', () => {
    expect(statusFilter(undefined, intervalFilterFields)).toEqual([]);
    const bound = statusFilter("providerKey=cdek;key=[onWay,delivered];clientNumber%'A-1';orderId>10;created>2026-03-01T10:00:00+03:00", intervalFilterFields);
    expect(bound.map((c) => [c.field, c.op, c.values])).toEqual([
      ['providerKey', '=', ['cdek']],
      ['key', '=', ['onway', 'delivered']],
      ['clientNumber', '%', ['a-1']],
      ['orderId', '>', [10]],
      ['created', '>', [Date.parse('2026-03-01T07:00:00Z')]],
    ]);
  });

  it.each([
    ['providerKey', '040010'],
    ['key=onWay;', '040010'],
    ['orderId=abc', '040010'],
    ['created>soon', '040010'],
    ['created%2026', '040010'],
    ['created=[2026-03-01,2026-03-02]', '040010'],
    ['city=Москва', '040011'],
  ])('refuses %s with %s', (filter, code) => {
    expect(codeOf(() => statusFilter(filter, intervalFilterFields))).toBe(code);
  });
});
