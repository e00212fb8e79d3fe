import { describe, expect, it } from 'vitest';
import { emptyItem, emptyPlace, fieldAliases, initialValues, toCreateInput, visibleFieldPaths, type OrderFormValues } from './form-values';
import { validateOrderForm } from './validate-order-form';
import { serverFieldErrors } from './zod-issues';
import type { Said } from '../i18n/error-messages';

/** The wire wording of a form error (keyed errors carry it beside their key). */
const textOf = (said: Said | undefined) => (said === undefined || typeof said === 'string' ? said : said.message);

function filled(): OrderFormValues {
  const v = initialValues();
  v.order = { ...v.order, providerKey: 'sandbox', tariffId: '136', clientNumber: 'A-1' };
  v.cost = { ...v.cost, assessedCost: '1500', codCost: '0' };
  v.codManual = true;
  v.recipient = { ...v.recipient, contactName: 'Анна Петрова', phone: '+7 900 123-45-67', city: 'Москва', street: 'Тверская', house: '1' };
  v.sender = { ...v.sender, contactName: 'Магазин', phone: '+7 495 000-00-00', city: 'Москва' };
  v.places = [{ ...emptyPlace(), weight: '1200', items: [{ ...emptyItem(), description: 'Кружка', quantity: '2', cost: '750' }] }];
  return v;
}

describe('order form validation', () => {
  it('accepts a complete form and yields the payload the core expects', () => {
    const { data, errors } = validateOrderForm(filled());
    expect(errors).toEqual({});
    expect(data?.order).toMatchObject({ clientNumber: 'A-1', tariffId: 136, deliveryType: 1, pickupType: 1, weight: 1200 });
    expect(data?.recipient).toMatchObject({ countryCode: 'RU', city: 'Москва' });
    expect(data?.recipient.email).toBeUndefined();
    expect(data?.places).toEqual([{ weight: 1200, items: [{ description: 'Кружка', quantity: 2, cost: 750 }] }]);
    expect(data?.extraParams).toBeUndefined();
  });

  it('marks an empty form’s required fields as required, by their payload paths', () => {
    const { data, errors } = validateOrderForm(initialValues());
    expect(data).toBeUndefined();
    for (const path of ['order.providerKey', 'order.tariffId', 'order.clientNumber', 'places.0.weight', 'recipient.contactName', 'recipient.phone', 'sender.phone', 'cost.assessedCost', 'places.0.items.0.description']) {
      expect(textOf(errors[path]), path).toBe('is required');
    }
  });

  it('reads numbers the way they are typed in Russia, and refuses ambiguous ones', () => {
    const v = filled();
    v.cost.codCost = '3 500,50';
    v.places[0].weight = '1 250';
    expect(validateOrderForm(v).data).toMatchObject({ cost: { codCost: 3500.5 }, order: { weight: 1250 } });
    v.cost.codCost = '1,234.56';
    expect(textOf(validateOrderForm(v).errors['cost.codCost'])).toBe('must be a number');
  });

  it('asks for the city together with the other missing fields, and for the line in one-line mode', () => {
    expect(validateOrderForm(initialValues()).errors['recipient.city']).toBe('city or addressString is required');
    const v = filled();
    v.recipientAddressMode = 'line';
    const { errors } = validateOrderForm(v);
    expect(textOf(errors['recipient.addressString'])).toBe('city or addressString is required');
    expect(errors['recipient.city']).toBeUndefined();
    v.recipient.addressString = 'Казань, Баумана 1';
    expect(validateOrderForm(v).data?.recipient).toMatchObject({ addressString: 'Казань, Баумана 1' });
    expect(validateOrderForm(v).data?.recipient.city).toBeUndefined();
  });

  it('reports the order weight under the first place’s weight, the field the user types', () => {
    const v = filled();
    v.places[0].weight = '0';
    const { errors } = validateOrderForm(v);
    expect(textOf(errors['places.0.weight'])).toBe('must be greater than 0');
    expect(errors['order.weight']).toBeUndefined();
  });

  it('asks for a pickup point as soon as delivery to a point is chosen, even while other fields are wrong', () => {
    const v = initialValues();
    v.order.deliveryType = '2';
    expect(textOf(validateOrderForm(v).errors['order.pointOutId'])).toBe('is required when deliveryType = 2');
  });

  it('points item errors at the item row of the right place', () => {
    const v = filled();
    v.places = [...v.places, { ...emptyPlace(), weight: '300', items: [{ ...emptyItem(), description: 'Ложка', quantity: '1.5' }] }];
    expect(textOf(validateOrderForm(v).errors['places.1.items.0.quantity'])).toBe('must be a whole number');
  });

  it('checks a delivery time range like the interface does', () => {
    const v = filled();
    v.order.deliveryTimeStart = '18:00';
    v.order.deliveryTimeEnd = '09:00';
    expect(textOf(validateOrderForm(v).errors['order.deliveryTimeEnd'])).toBe('must be later than deliveryTimeStart');
    v.order.deliveryTimeStart = '9';
    expect(textOf(validateOrderForm(v).errors['order.deliveryTimeStart'])).toBe('must be a time HH:MM');
  });

  it('refuses a word in a numeric additional service, and sends numbers and ticks as such', () => {
    const v = filled();
    v.extraParams = { insurance: true, declared: 'abc', floor: '3', note: ' ', sms: false };
    const types = { insurance: 'bool', declared: 'float', floor: 'int', note: 'string', sms: 'bool' };
    expect(textOf(validateOrderForm(v, types).errors['extraParams.declared'])).toBe('must be a number');
    v.extraParams.declared = '1 500,5';
    expect(validateOrderForm(v, types).data?.extraParams).toEqual({ insurance: true, declared: 1500.5, floor: 3 });
    v.extraParams.floor = '2.5';
    expect(textOf(validateOrderForm(v, types).errors['extraParams.floor'])).toBe('must be a whole number');
  });

  it('lists visible fields top to bottom, with the pickup point only for delivery to a point', () => {
    const v = filled();
    expect(visibleFieldPaths(v)).not.toContain('order.pointOutId');
    expect(visibleFieldPaths(v)).toContain('order.deliveryTimeStart');
    v.order.deliveryType = '2';
    const paths = visibleFieldPaths(v, ['insurance']);
    expect(paths).not.toContain('order.deliveryTimeStart');
    expect(paths[0]).toBe('order.clientNumber');
    expect(paths.indexOf('places.0.items.0.cost')).toBeLessThan(paths.indexOf('order.pointOutId'));
    expect(paths.indexOf('order.pointOutId')).toBeLessThan(paths.indexOf('extraParams.insurance'));
    expect(paths.at(-1)).toBe('sender.office');
  });
});

describe('the postcode', () => {
  it('is checked by the core\'s own schema: six digits for a Russian address, sent as the address\'s index', () => {
    const v = filled();
    v.recipient.index = '12abc';
    v.sender.index = '1250';
    const { errors } = validateOrderForm(v);
    expect(textOf(errors['recipient.index'])).toBe('must be 6 digits (a Russian postcode)');
    expect(textOf(errors['sender.index'])).toBe('must be 6 digits (a Russian postcode)');
    v.recipient.index = ' 101001 ';
    v.sender.index = '';
    const { data } = validateOrderForm(v);
    expect(data?.recipient).toMatchObject({ index: '101001', postIndex: '101001' });
    expect(data?.sender.index).toBeUndefined();
  });

  it('shows its rule on a blank form at once, under the postcode, not only once the rest is filled', () => {
    const v = initialValues();
    v.recipient.index = '12abc';
    const { data, errors } = validateOrderForm(v);
    expect(data).toBeUndefined();
    expect(textOf(errors['recipient.index'])).toBe('must be 6 digits (a Russian postcode)');
    expect(errors['recipient.contactName']).toBeDefined();
    expect(errors['sender.index']).toBeUndefined();
  });

  it('is a field of the recipient and the sender, in the one-line mode too, focused before the city', () => {
    const v = filled();
    const paths = visibleFieldPaths(v);
    expect(paths.indexOf('recipient.index')).toBeLessThan(paths.indexOf('recipient.city'));
    expect(paths.indexOf('sender.index')).toBeLessThan(paths.indexOf('sender.city'));
    v.recipientAddressMode = 'line';
    v.recipient.index = '420000';
    v.recipient.addressString = 'Казань, Баумана 1';
    expect(visibleFieldPaths(v)).toContain('recipient.index');
    expect(validateOrderForm(v).data?.recipient).toMatchObject({ index: '420000', addressString: 'Казань, Баумана 1' });
  });
});

describe('payload building', () => {
  it('sends a pickup point only for delivery to a point, and a delivery time only to the door', () => {
    const v = filled();
    v.order.pointOutId = '555';
    v.order.deliveryTimeStart = '10:00';
    const door = toCreateInput(v) as { order: Record<string, unknown> };
    expect(door.order.pointOutId).toBeUndefined();
    expect(door.order.deliveryTimeStart).toBe('10:00');
    v.order.deliveryType = '2';
    const point = toCreateInput(v) as { order: Record<string, unknown> };
    expect(point.order).toMatchObject({ pointOutId: '555', deliveryType: 2 });
    expect(point.order.deliveryTimeStart).toBeUndefined();
  });

  it('makes the order weight the sum of the places, each place with its own sizes and items', () => {
    const v = filled();
    v.places = [
      { ...emptyPlace(), weight: '1200', length: '30', width: '20', height: '10', items: [{ ...emptyItem(), description: 'Кружка', quantity: '2', cost: '750' }] },
      { ...emptyPlace(), weight: '800,5', items: [{ ...emptyItem(), description: 'Чайник', articul: 'T-1', quantity: '1', cost: '2000' }] },
    ];
    const { data } = validateOrderForm(v);
    expect(data?.order.weight).toBe(2000.5);
    expect(data?.places).toEqual([
      { weight: 1200, length: 30, width: 20, height: 10, items: [{ description: 'Кружка', quantity: 2, cost: 750 }] },
      { weight: 800.5, items: [{ description: 'Чайник', articul: 'T-1', quantity: 1, cost: 2000 }] },
    ]);
  });
});

describe('server field errors', () => {
  it('keeps the first message per field and understands bracket indexes', () => {
    expect(
      serverFieldErrors(
        [
          { field: 'order.clientNumber', message: 'must be unique' },
          { field: 'order.clientNumber', message: 'second' },
          { field: 'places[0].items[2].cost', message: 'must not be negative' },
          { field: 'order.weight', message: 'must be greater than 0' },
        ],
        fieldAliases,
      ),
    ).toEqual({
      'order.clientNumber': { field: 'order.clientNumber', message: 'must be unique' },
      'places.0.items.2.cost': { field: 'places[0].items[2].cost', message: 'must not be negative' },
      'places.0.weight': { field: 'order.weight', message: 'must be greater than 0' },
    });
  });
});
