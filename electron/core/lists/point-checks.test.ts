import type { Point } from '../../../shared/schemas/lists';
import { parseFields, project } from './fields';
import { pointRefusals } from './point-checks';
import { AppError } from '../errors';

const locker: Point = {
  id: 300001, providerKey: 'sandbox-lockers', code: 'MSKL0001', name: 'Постамат', postIndex: '101000', lat: 55.75, lng: 37.61, countryCode: 'RU',
  region: 'Москва', city: 'Москва', community: null, street: 'ул. Тверская', house: '7', block: null, office: null, address: '…', phone: null,
  timetable: 'Круглосуточно', worktime: {}, fittingRoom: 0, cod: 0, paymentCash: 0, paymentCard: 0, availableOperation: 2, type: 2,
  limits: { maxSizeA: 64, maxSizeB: 41, maxSizeC: 38, maxSizeSum: 143, minWeight: 1, maxWeight: 15000, maxCod: null }, enabled: 1,
};
const reasons = (point: Point, ...args: Parameters<typeof pointRefusals> extends [Point, ...infer R] ? R : never) =>
  pointRefusals(point, ...args).map((r) => r.reason);

describe('what a point takes', () => {
  it('a parcel that fits the cell in any orientation is taken', () => {
    expect(reasons(locker, { weight: 3000, length: 30, width: 60, height: 40 }, 'out')).toEqual([]);
  });

  it('a parcel too big for the cell, too heavy or with cash on delivery is refused, each reason said', () => {
    expect(reasons(locker, { weight: 16000, length: 70, width: 10, height: 10, codCost: 500 }, 'out')).toEqual(['weight', 'size', 'cod']);
    expect(pointRefusals(locker, { codCost: 500 })[0].message).toMatch(/does not take cash on delivery/);
  });

  it('a point that only hands orders out cannot take them in; a closed point takes nothing', () => {
    expect(reasons(locker, {}, 'in')).toEqual(['operation']);
    expect(reasons({ ...locker, enabled: 0 }, {}, 'out')).toEqual(['disabled']);
  });

  it('a pickup point without cell sizes checks the sum of the sizes and its cash limit', () => {
    const pickup: Point = { ...locker, type: 1, cod: 1, limits: { ...locker.limits, maxSizeA: null, maxSizeB: null, maxSizeC: null, maxSizeSum: 150, maxCod: 100000 } };
    expect(reasons(pickup, { length: 60, width: 50, height: 41, codCost: 100000 })).toEqual(['size']);
    expect(reasons(pickup, { length: 60, width: 50, height: 40, codCost: 100000.01 })).toEqual(['cod']);
  });
});

describe('fields=', () => {
  const known = ['id', 'name', 'limits'];
  it('keeps the record order and skips blanks; nothing or blank means all fields', () => {
    expect(parseFields('limits, ,id', known)).toEqual(['id', 'limits']);
    expect(parseFields('', known)).toBeNull();
    expect(parseFields(' , ', known)).toBeNull();
    expect(project([{ id: 1, name: 'a', limits: {} }], ['name'])).toEqual([{ name: 'a' }]);
  });

  it('an unknown name is 040012, naming every unknown one', () => {
    try {
      parseFields('id,colour,size', known);
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).body).toMatchObject({ code: '040012', errors: [{ field: 'fields' }, { field: 'fields' }] });
    }
  });
});
