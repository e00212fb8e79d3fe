import { orderCreateSchema } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import { toCreateInput, valuesFromPayload } from '../../order-form/form-values';
import { withUnseenFields } from './unseen-fields';

/** What the edit sends: the form's payload after the user's change, with what the form cannot show put back. */
function edit(original: Record<string, unknown>, change: (v: ReturnType<typeof valuesFromPayload>) => void) {
  const values = valuesFromPayload(original);
  const seen = toCreateInput(values);
  change(values);
  return withUnseenFields(original, seen, toCreateInput(values));
}

describe('editing an order in the form keeps what the form does not show', () => {
  const original = JSON.parse(JSON.stringify(orderCreateSchema.parse(orderPayload('ED-1', (o) => (o.order.comment = 'Звонить за час'))))) as Record<string, any>;

  it('keeps the delivery charge, the comment and the items’ assessed values and weights', () => {
    const sent = edit(original, (v) => (v.recipient.city = 'Москва')) as Record<string, any>;
    expect(sent.recipient.city).toBe('Москва');
    // The delivery charge has its own box in the form now, which sends what is typed as text; the schema reads it back as rubles.
    expect(orderCreateSchema.parse(sent).cost.deliveryCost).toBe(original.cost.deliveryCost);
    expect(sent.order.comment).toBe('Звонить за час');
    expect(sent.places[0].items.map((i: any) => [i.description, i.assessedCost, i.weight])).toEqual([
      ['Футболка', 1000, 300],
      ['Кепка', 500, 200],
    ]);
    expect(orderCreateSchema.safeParse(sent).success).toBe(true);
  });

  it('lets the user clear or change what the form does show', () => {
    const sent = edit(original, (v) => {
      v.recipient.email = '';
      v.places[0].items[1].description = 'Шапка';
    }) as Record<string, any>;
    expect(sent.recipient.email).toBeUndefined();
    // A different item in the same row is a new item: nothing of the cap is carried over to it.
    expect(sent.places[0].items[1]).not.toHaveProperty('assessedCost');
    expect(sent.places[0].items[1].description).toBe('Шапка');
  });

  it('edits the recipient\'s postcode in its box: a changed one is sent, a cleared one does not come back under its other name', () => {
    const withPostcode = { ...original, recipient: { ...original.recipient, index: '101001', postIndex: '101001' } };
    const changed = orderCreateSchema.parse(edit(withPostcode, (v) => (v.recipient.index = '190000')));
    expect(changed.recipient).toMatchObject({ index: '190000', postIndex: '190000' });
    const cleared = orderCreateSchema.parse(edit(withPostcode, (v) => (v.recipient.index = '')));
    expect(cleared.recipient.index).toBeUndefined();
    expect(cleared.recipient.postIndex).toBeUndefined();
  });
});
