import { serviceNamed } from './service-names';

/** The services as /lists/providers names them: connected ones and the sandboxes. */
const services = [
  { key: 'russian-post', name: 'Почта России' },
  { key: 'cdek', name: 'СДЭК' },
  { key: 'sandbox-post', name: 'Песочница Почта (тест)' },
  { key: 'yandex-delivery', name: 'Яндекс Доставка (тестовый режим)' },
];

describe('a delivery service named in a cell', () => {
  it('is found by its name in the shop\'s own spelling, by its key, or by the first words of one name', () => {
    expect(serviceNamed(services, 'Почта России')).toBe('russian-post');
    expect(serviceNamed(services, ' почта  россии ')).toBe('russian-post');
    expect(serviceNamed(services, '«Почта России»')).toBe('russian-post');
    expect(serviceNamed(services, 'Почта')).toBe('russian-post');
    expect(serviceNamed(services, 'russian-post')).toBe('russian-post');
    expect(serviceNamed(services, 'сдэк')).toBe('cdek');
    // a test-mode remark in the name is not needed in the cell
    expect(serviceNamed(services, 'Яндекс Доставка')).toBe('yandex-delivery');
    expect(serviceNamed(services, 'Яндекс')).toBe('yandex-delivery');
    expect(serviceNamed(services, 'Песочница Почта')).toBe('sandbox-post');
  });

  it('is none when the cell names no service or the start of several', () => {
    expect(serviceNamed(services, 'Boxberry')).toBeUndefined();
    expect(serviceNamed(services, 'России')).toBeUndefined();
    expect(serviceNamed(services, '')).toBeUndefined();
    expect(serviceNamed([...services, { key: 'post-2', name: 'Почта Банк' }], 'Почта')).toBeUndefined();
  });
});
