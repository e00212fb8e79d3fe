import { untranslatedWords } from '../helpers/latin-words';

/** The rule the "every screen in Russian" browser test applies to each text it sees. */
describe('untranslated words on a Russian screen', () => {
  it('flags English words, whole sentences and single ones', () => {
    expect(untranslatedWords('Canceled at the client\'s request')).toEqual(['Canceled', 'at', 'the', 'client', 's', 'request']);
    expect(untranslatedWords('Заказ не создан: Failed')).toEqual(['Failed']);
    expect(untranslatedWords('Вы вошли как My shop · Владелец')).toEqual(['My', 'shop']);
  });

  it('lets through names on the list, codes, numbers, links, addresses and file names', () => {
    expect(untranslatedWords('Песочница CDEK, Boxberry и ShipDesk')).toEqual([]);
    expect(untranslatedWords('Трек SBEC20261124000001, заказ DR-1, бумага A4, 1С')).toEqual([]);
    expect(untranslatedWords('Адрес https://shop.example/v1/orders, почта anna@example.ru')).toEqual([]);
    expect(untranslatedWords('Файл orders-2026.xlsx сохранён; столбец A, ячейка S, M или L')).toEqual([]);
    expect(untranslatedWords('Ctrl+Enter — создать')).toEqual([]);
  });

  it('takes an explicit list of its own instead of the common one', () => {
    expect(untranslatedWords('fragile — хрупкий', new Set(['fragile']))).toEqual([]);
    expect(untranslatedWords('fragile — хрупкий')).toEqual(['fragile']);
  });
});
