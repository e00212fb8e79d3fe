import { describe, expect, it } from 'vitest';
import type { CalculatorResult } from '../../shared/schemas/calculator';
import { draftDataOf, newDraftId, valuesOfDraft } from './draft-data';
import { emptyItem, emptyPlace, initialValues, itemsTotalKopecks, recipientWithPointIndex, senderFromProfile, valuesFromPayload, withDerivedCosts, type ChosenPoint, type OrderFormValues } from './form-values';
import { intervalsRequestOf, tariffIntervals } from './interval-request';
import { offeredKinds, parcelOf, pointSearchOf, worktimeGroups, type PointFilters } from './order-parcel';
import { quoteRequestOf, quoteRows } from './quote-request';

const item = (cost: string, quantity: string) => ({ ...emptyItem(), description: 'x', cost, quantity });
const noFilters: PointFilters = { city: '', search: '', cod: false, fittingRoom: false, kind: 'all' };

describe('cash on delivery from the items', () => {
  it('adds price × quantity over every place, exactly in kopecks', () => {
    const places = [
      { ...emptyPlace(), items: [item('0,10', '3'), item('1 499.99', '2')] },
      { ...emptyPlace(), items: [item('0.2', '1')] },
    ];
    expect(itemsTotalKopecks(places)).toBe(30 + 299998 + 20);
  });

  it('skips rows whose price or quantity is not a number yet', () => {
    expect(itemsTotalKopecks([{ ...emptyPlace(), items: [item('', '2'), item('abc', '1'), item('100', ''), item('50', '2')] }])).toBe(10000);
  });

  it('follows the items until the user types an amount, then keeps the user’s', () => {
    const v = initialValues();
    v.places = [{ ...emptyPlace(), items: [item('750', '2')] }];
    expect(withDerivedCosts(v).cost.codCost).toBe('1500');
    v.places[0].items.push(item('0.5', '1'));
    expect(withDerivedCosts(v).cost.codCost).toBe('1500.50');
    const manual = { ...v, codManual: true, cost: { ...v.cost, codCost: '0' } };
    expect(withDerivedCosts(manual).cost.codCost).toBe('0');
  });

  it('declares the items\' value as the order\'s value until the user types another, the COD aside', () => {
    const v = initialValues();
    expect(withDerivedCosts(v).cost.assessedCost).toBe(''); // nothing priced yet: left for the user
    v.places = [{ ...emptyPlace(), items: [item('750', '2'), item('0.5', '1')] }];
    expect(withDerivedCosts(v).cost).toMatchObject({ assessedCost: '1500.50', codCost: '1500.50' });
    const prepaid = withDerivedCosts({ ...v, codManual: true, cost: { ...v.cost, codCost: '0' } });
    expect(prepaid.cost).toMatchObject({ assessedCost: '1500.50', codCost: '0' });
    const declared = withDerivedCosts({ ...v, assessedManual: true, cost: { ...v.cost, assessedCost: '5000' } });
    expect(declared.cost.assessedCost).toBe('5000');
    expect(valuesFromPayload({ cost: { assessedCost: 1500, codCost: 0 }, places: [{ items: [{ cost: 750, quantity: 2 }] }] }).assessedManual).toBe(false);
    expect(valuesFromPayload({ cost: { assessedCost: 2500, codCost: 0 }, places: [{ items: [{ cost: 750, quantity: 2 }] }] }).assessedManual).toBe(true);
  });

  it('adds the recipient\'s delivery charge when it is collected with the COD, and reads it back from a saved order', () => {
    const v = initialValues();
    v.places = [{ ...emptyPlace(), items: [item('750', '2')] }];
    v.cost = { ...v.cost, deliveryCost: '199,90' };
    expect(withDerivedCosts(v).cost.codCost).toBe('1500');
    const included = withDerivedCosts({ ...v, codIncludesDelivery: true });
    expect(included.cost.codCost).toBe('1699.90');
    const back = valuesFromPayload({ cost: { codCost: 1699.9, deliveryCost: 199.9, quotedDeliveryCost: 389.7 }, places: [{ items: [{ cost: 750, quantity: 2 }] }] });
    expect(back).toMatchObject({ codIncludesDelivery: true, codManual: false, cost: { deliveryCost: '199.9', quotedDeliveryCost: '389.7' } });
  });
});

function orderWithPlaces(): OrderFormValues {
  const v = initialValues();
  v.order.providerKey = 'sandbox-lockers';
  v.places = [
    { ...emptyPlace(), weight: '1000', length: '10', width: '40', height: '20' },
    { ...emptyPlace(), weight: '500', length: '35', width: '5', height: '30' },
  ];
  return v;
}

describe('pickup points that fit the order', () => {
  it('measures the order as the box every place fits in, largest side first, and the total weight', () => {
    expect(parcelOf(orderWithPlaces().places, 0)).toEqual({ weight: 1500, length: 40, width: 30, height: 10 });
  });

  it('asks only for points of the service that hand orders out and take this parcel', () => {
    const query = pointSearchOf(orderWithPlaces(), { ...noFilters, city: ' Москва ' });
    expect(query).toMatchObject({ providerKey: 'sandbox-lockers', operation: 'issue', city: 'Москва', parcel: { weight: 1500, length: 40, width: 30, height: 10 } });
    expect(query.cod).toBeUndefined();
    expect(query.types).toBeUndefined();
  });

  it('demands cash on delivery when the order has it, whatever the checkbox says', () => {
    const v = orderWithPlaces();
    v.cost.codCost = '1 200,50';
    expect(pointSearchOf(v, noFilters)).toMatchObject({ cod: true, parcel: { codCost: 1200.5 } });
    v.cost.codCost = '0';
    expect(pointSearchOf(v, { ...noFilters, cod: true }).cod).toBe(true);
    expect(pointSearchOf(v, noFilters).cod).toBeUndefined();
  });

  it('narrows to lockers, pickup points, fitting rooms and the words typed', () => {
    const v = orderWithPlaces();
    expect(pointSearchOf(v, { ...noFilters, kind: 'locker' }).types).toEqual([2]);
    expect(pointSearchOf(v, { ...noFilters, kind: 'pickup' }).types).toEqual([1]);
    expect(pointSearchOf(v, { ...noFilters, kind: 'office' }).types).toEqual([3]);
    expect(pointSearchOf(v, { ...noFilters, fittingRoom: true, search: 'Невский 28' })).toMatchObject({ fittingRoom: true, search: 'Невский 28' });
  });

  it('sends no sizes while none are typed, and no weight until every place has one', () => {
    const v = initialValues();
    v.places = [{ ...emptyPlace(), weight: '700' }, emptyPlace()];
    expect(parcelOf(v.places)).toEqual({});
  });

  it('groups a point’s hours by days with the same hours, a missing day closed', () => {
    const groups = worktimeGroups({ '1': '10:00/20:00', '2': '10:00/20:00', '3': '10:00/20:00', '4': '10:00/20:00', '5': '10:00/20:00', '6': '11:00/18:00' });
    expect(groups).toEqual([
      { from: 1, to: 5, hours: '10:00–20:00' },
      { from: 6, to: 6, hours: '11:00–18:00' },
      { from: 7, to: 7, hours: null },
    ]);
  });
});

describe('the price table', () => {
  it('waits for both cities and every place’s weight', () => {
    const v = orderWithPlaces();
    expect(quoteRequestOf(v)).toEqual({ missing: 'cities' });
    v.recipient.city = 'Казань';
    v.sender.city = 'Москва';
    v.places[1].weight = '';
    expect(quoteRequestOf(v)).toEqual({ missing: 'weight' });
    v.places[1].weight = '500';
    v.cost.codCost = '1000';
    expect(quoteRequestOf(v)).toMatchObject({ request: { from: { city: 'Москва' }, to: { city: 'Казань' }, codCost: 1000, places: [{ weight: 1000, length: 10 }, { weight: 500 }] } });
  });

  it('lists door and point tariffs of every service, cheapest first', () => {
    const quote = (tariffId: number, deliveryCost: number, pickup: number) => ({
      tariffId, tariffProviderId: `T${tariffId}`, tariffName: `T${tariffId}`, pickupTypes: [pickup], deliveryTypes: [1], deliveryCost,
      deliveryCostOriginal: deliveryCost, daysMin: 1, daysMax: 3, feesIncluded: true, insuranceFee: 0, cashServiceFee: 0,
    });
    const result: CalculatorResult = {
      deliveryToDoor: [{ providerKey: 'a', tariffs: [quote(1, 500, 1)] }],
      deliveryToPoint: [{ providerKey: 'b', tariffs: [{ ...quote(2, 300, 2), deliveryTypes: [2], pointIds: [7] }] }],
    };
    expect(quoteRows(result).map((r) => [r.providerKey, r.tariffId, r.deliveryType, r.pickupType, r.price])).toEqual([
      ['b', 2, 2, 2, 300],
      ['a', 1, 1, 1, 500],
    ]);
  });
});

describe('delivery intervals', () => {
  it('are asked for the chosen service and tariff, between the two cities', () => {
    const v = initialValues();
    expect(intervalsRequestOf(v)).toBeUndefined();
    v.order.providerKey = 'sandbox-post';
    v.order.tariffId = '202';
    v.sender.city = 'Москва';
    v.recipient.city = 'Казань';
    expect(intervalsRequestOf(v)).toEqual({ providerKeys: ['sandbox-post'], tariffIds: [202], from: { city: 'Москва' }, to: { city: 'Казань' } });
  });

  it('are read for the chosen tariff only', () => {
    const slots = [{ date: null, from: '09:00', to: '14:00' }];
    const tariff = (tariffId: number) => ({ tariffId, tariffProviderId: '', tariffName: '', pickupTypes: [2], deliveryTypes: [1], toIntervals: slots });
    const result = { deliveryToDoor: [{ providerKey: 'sandbox-post', tariffs: [tariff(202)] }] };
    expect(tariffIntervals(result, 'sandbox-post', '202')).toEqual(slots);
    expect(tariffIntervals(result, 'sandbox-post', '201')).toBeUndefined();
    expect(tariffIntervals(result, 'sandbox-express', '202')).toBeUndefined();
  });
});

describe('kinds of point a tariff delivers to', () => {
  it('narrow the search to the tariff\'s types whatever kind is picked, and a kind inside them to that kind', () => {
    const v = orderWithPlaces();
    expect(pointSearchOf(v, noFilters, [3]).types).toEqual([3]);
    expect(pointSearchOf(v, { ...noFilters, kind: 'locker' }, [3]).types).toEqual([3]);
    expect(pointSearchOf(v, { ...noFilters, kind: 'locker' }, [1, 2]).types).toEqual([2]);
    expect(pointSearchOf(v, noFilters).types).toBeUndefined();
  });

  it('offer post offices only where the service has some, and only the kinds the tariff takes', () => {
    expect(offeredKinds(undefined, false)).toEqual(['all', 'pickup', 'locker']);
    expect(offeredKinds(undefined, true)).toEqual(['all', 'pickup', 'office', 'locker']);
    expect(offeredKinds([3], true)).toEqual(['office']);
    expect(offeredKinds([1, 2], true)).toEqual(['all', 'pickup', 'locker']);
  });
});

describe('drafts', () => {
  it('keep the create payload for submitting and the form as typed for reopening', () => {
    const v = orderWithPlaces();
    v.order.clientNumber = 'D-1';
    v.recipient.contactName = 'Анна';
    v.places[0].weight = '1 000,5';
    v.point = { id: 42, providerKey: 'sandbox-lockers', name: 'Постамат', address: 'Невский 28', worktime: { '1': '00:00/23:59' } };
    const data = draftDataOf(v);
    expect(data).toMatchObject({ order: { clientNumber: 'D-1', providerKey: 'sandbox-lockers' }, recipient: { contactName: 'Анна' } });
    const back = valuesOfDraft(JSON.parse(JSON.stringify(data)));
    expect(back.places[0].weight).toBe('1 000,5');
    expect(back.point?.id).toBe(42);
    expect(back).toEqual(v);
  });

  it('read a draft made elsewhere (payload only) into the form', () => {
    const v = valuesOfDraft({ order: { clientNumber: 7, deliveryType: 2, pointOutId: 15 }, recipient: { contactName: 'Ира', addressString: 'Казань, Баумана 1' }, places: [{ weight: 300, items: [{ description: 'Чай', quantity: 2, cost: 100 }] }], cost: { codCost: 200 } });
    expect(v.order).toMatchObject({ clientNumber: '7', deliveryType: '2', pointOutId: '15' });
    expect(v.recipientAddressMode).toBe('line');
    expect(v.places[0].items[0]).toMatchObject({ description: 'Чай', quantity: '2', cost: '100' });
    expect(v.codManual).toBe(false);
    expect(valuesFromPayload({ cost: { codCost: 0 }, places: [{ items: [{ cost: 100, quantity: 1 }] }] }).codManual).toBe(true);
    expect(valuesFromPayload('nonsense').places).toHaveLength(1);
  });

  it('keep the postcodes as typed, and read them from a payload under either name', () => {
    const v = orderWithPlaces();
    v.recipient.index = '1010';
    v.sender.index = '190000';
    const back = valuesOfDraft(JSON.parse(JSON.stringify(draftDataOf(v))));
    expect(back.recipient.index).toBe('1010');
    expect(back.sender.index).toBe('190000');
    expect(valuesFromPayload({ recipient: { postIndex: '630000' }, sender: { index: '101000' } })).toMatchObject({ recipient: { index: '630000' }, sender: { index: '101000' } });
  });

  it('get ids the core accepts', () => {
    const id = newDraftId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(newDraftId()).not.toBe(id);
  });
});

describe('the recipient\'s postcode and the chosen point', () => {
  const office = (id: number, postIndex?: string): ChosenPoint => ({ id, providerKey: 'russian-post', code: postIndex, name: `Отделение ${postIndex}`, address: '', postIndex, worktime: {} });

  it('follows the point\'s postal index while the user has typed none of their own', () => {
    const v = initialValues();
    const first = { ...v, recipient: recipientWithPointIndex(v, office(1, '190000')), point: office(1, '190000') };
    expect(first.recipient.index).toBe('190000');
    // another point: the postcode that came from the first one follows
    expect(recipientWithPointIndex(first, office(2, '191186')).index).toBe('191186');
    // a point without an index leaves the postcode as it is
    expect(recipientWithPointIndex(first, office(3)).index).toBe('190000');
  });

  it('keeps a postcode the user typed', () => {
    const v = initialValues();
    v.recipient.index = '101001';
    expect(recipientWithPointIndex(v, office(1, '190000')).index).toBe('101001');
  });
});

describe('a sender profile in the form', () => {
  const profile = { countryCode: 'RU', contactName: 'Иван Петров', phone: '+79161234567', city: 'Москва' };

  it('splits the profile\'s one-line address into street, house and office', () => {
    expect(senderFromProfile({ ...profile, addressString: 'ул. Тверская, д. 7, корп. 2, оф. 12' })).toMatchObject({
      city: 'Москва', street: 'ул. Тверская', house: '7 корп. 2', office: '12',
    });
    expect(senderFromProfile({ ...profile, city: undefined, addressString: '190000, Санкт-Петербург, Невский пр-т 28-5' })).toMatchObject({
      city: 'Санкт-Петербург', street: 'Невский пр-т', house: '28', office: '5',
    });
  });

  it('brings the profile\'s postcode, or the one its address line starts with', () => {
    expect(senderFromProfile({ ...profile, index: '101000', street: 'Тверская' }).index).toBe('101000');
    expect(senderFromProfile({ ...profile, city: undefined, addressString: '190000, Санкт-Петербург, Невский пр-т 28-5' }).index).toBe('190000');
  });

  it('keeps the parts a profile already has', () => {
    expect(senderFromProfile({ ...profile, street: 'Тверская', house: '1', addressString: 'ул. Арбат, 5' })).toMatchObject({ street: 'Тверская', house: '1' });
  });
});
