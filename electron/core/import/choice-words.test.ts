import { choiceCode } from './choice-words';

describe('delivery and pickup written in shop words', () => {
  it.each([
    ['До двери', 1], ['до двери', 1], ['Курьер', 1], ['курьером', 1], ['Доставка курьером', 1], ['door', 1], ['To the door', 1], ['1', 1], [1, 1],
    ['ПВЗ', 2], ['пвз', 2], ['В пункт выдачи', 2], ['Самовывоз', 2], ['постамат', 2], ['Pickup point', 2], ['2', 2], [2, 2],
  ] as const)('Доставка «%s» is deliveryType %i', (cell, code) => {
    expect(choiceCode('order.deliveryType', cell)).toBe(code);
  });

  it.each([
    ['Заберёт курьер', 1], ['заберет курьер', 1], ['курьер', 1], ['Courier pickup', 1],
    ['Сдам в отделение', 2], ['отделение', 2], ['сам привезу', 2], ['склад', 2], ['Drop-off', 2],
  ] as const)('Передача заказа «%s» is pickupType %i', (cell, code) => {
    expect(choiceCode('order.pickupType', cell)).toBe(code);
  });

  it('refuses what names neither, or both', () => {
    for (const cell of ['завтра', '3', '', 'курьером до ПВЗ', 'почта']) expect(choiceCode('order.deliveryType', cell)).toBeUndefined();
  });
});
