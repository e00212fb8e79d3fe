import { describe, expect, it } from 'vitest';
import { fieldAliases, initialValues, toCreateInput, visibleFieldPaths, type OrderFormValues } from './form-values';
import { validateOrderForm } from './validate-order-form';
import { serverFieldErrors } from './zod-issues';

function filled(): OrderFormValues {
  const v = initialValues();
  v.order = { ...v.order, providerKey: 'sandbox', tariffId: '136', clientNumber: 'A-1', weight: '1200' };
  v.cost = { assessedCost: '1500', codCost: '0' };
  v.recipient = { contactName: 'Анна Петрова', phone: '+7 900 123-45-67', email: '', city: 'Москва', street: 'Тверская', house: '1' };
  v.sender = { contactName: 'Магазин', phone: '+7 495 000-00-00', city: 'Москва', street: '', house: '' };
  v.items = [{ key: 'k1', description: 'Кружка', quantity: '2', cost: '750' }];
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
  });

  it('marks an empty form’s required fields as required, by their payload paths', () => {
    const { data, errors } = validateOrderForm(initialValues());
    expect(data).toBeUndefined();
    for (const path of ['order.providerKey', 'order.tariffId', 'order.clientNumber', 'order.weight', 'recipient.contactName', 'recipient.phone', 'sender.phone', 'cost.assessedCost', 'places.0.items.0.description']) {
      expect(errors[path], path).toBe('is required');
    }
  });

  it('reads numbers the way they are typed in Russia, and refuses ambiguous ones', () => {
    const v = filled();
    v.cost.codCost = '3 500,50';
    v.order.weight = '1 250';
    expect(validateOrderForm(v).data).toMatchObject({ cost: { codCost: 3500.5 }, order: { weight: 1250 } });
    v.cost.codCost = '1,234.56';
    expect(validateOrderForm(v).errors['cost.codCost']).toBe('must be a number');
  });

  it('asks for the city together with the other missing fields', () => {
    expect(validateOrderForm(initialValues()).errors['recipient.city']).toBe('city or addressString is required');
  });

  it('keeps the schema’s own message for a city left empty', () => {
    const v = filled();
    v.recipient.city = '';
    expect(validateOrderForm(v).errors['recipient.city']).toBe('city or addressString is required');
  });

  it('reports the place weight under the order weight, the only weight the form shows', () => {
    const v = filled();
    v.order.weight = '0';
    const { errors } = validateOrderForm(v);
    expect(errors['order.weight']).toBe('must be greater than 0');
    expect(errors['places.0.weight']).toBeUndefined();
  });

  it('asks for a pickup point as soon as delivery to a point is chosen, even while other fields are wrong', () => {
    const v = initialValues();
    v.order.deliveryType = '2';
    expect(validateOrderForm(v).errors['order.pointOutId']).toBe('is required when deliveryType = 2');
  });

  it('points item errors at the item row', () => {
    const v = filled();
    v.items = [...v.items, { key: 'k2', description: 'Ложка', quantity: '1.5', cost: '' }];
    expect(validateOrderForm(v).errors['places.0.items.1.quantity']).toBe('must be a whole number');
  });

  it('does not send a pickup point for delivery to the door', () => {
    const v = filled();
    v.order.pointOutId = '555';
    expect((toCreateInput(v) as { order: { pointOutId?: unknown } }).order.pointOutId).toBeUndefined();
  });

  it('lists visible fields top to bottom, with the pickup point only for delivery to a point', () => {
    const v = filled();
    expect(visibleFieldPaths(v)).not.toContain('order.pointOutId');
    v.order.deliveryType = '2';
    const paths = visibleFieldPaths(v);
    expect(paths.indexOf('order.pointOutId')).toBeLessThan(paths.indexOf('recipient.phone'));
    expect(paths.at(-1)).toBe('places.0.items.0.cost');
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
          { field: 'places.0.weight', message: 'must be greater than 0' },
        ],
        fieldAliases,
      ),
    ).toEqual({
      'order.clientNumber': 'must be unique',
      'places.0.items.2.cost': 'must not be negative',
      'order.weight': 'must be greater than 0',
    });
  });
});
