import { afterEach, describe, expect, it } from 'vitest';
import { testEngines, type TestStores } from '../test-engines';

describe.each(testEngines)('the connections store ($name)', ({ open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  const values = (name: string, settings = {}) => ({ name, testMode: false, baseUrl: null, credentials: `sealed-${name}`, settings });

  it('keeps connections oldest first with their sealed secrets and settings; the oldest of a service is its default', async () => {
    opened = await open();
    const { connections } = opened.stores;
    expect(await connections.defaultOf('cdek')).toBeNull();
    const first = await connections.create('cdek', values('Основной', { tariffCode: 136, shipFrom: 'Москва' }), 10);
    const second = await connections.create('cdek', { ...values('Тестовый'), testMode: true, baseUrl: 'https://api.edu.cdek.ru', credentials: null }, 20);
    const other = await connections.create('russian-post', values('Почта'), 30);

    expect(await connections.defaultOf('cdek')).toBe(first);
    expect(await connections.defaultOf('russian-post')).toBe(other);
    expect((await connections.list()).map((c) => [c.id, c.providerKey, c.name])).toEqual([
      [first, 'cdek', 'Основной'],
      [second, 'cdek', 'Тестовый'],
      [other, 'russian-post', 'Почта'],
    ]);
    expect(await connections.get(second)).toEqual({
      id: second, providerKey: 'cdek', name: 'Тестовый', testMode: true, baseUrl: 'https://api.edu.cdek.ru', credentials: null, settings: {}, createdAt: 20, updatedAt: 20,
    });
    expect((await connections.get(first))?.settings).toEqual({ tariffCode: 136, shipFrom: 'Москва' });
  });

  it('changes a connection in place and forgets a deleted one; the next oldest becomes the default', async () => {
    opened = await open();
    const { connections } = opened.stores;
    const first = await connections.create('cdek', values('A'), 10);
    const second = await connections.create('cdek', values('B'), 20);
    await connections.update(second, { ...values('B2', { x: true }), credentials: null }, 25);
    expect(await connections.get(second)).toMatchObject({ name: 'B2', credentials: null, settings: { x: true }, createdAt: 20, updatedAt: 25 });
    await connections.delete(first);
    expect(await connections.get(first)).toBeNull();
    expect(await connections.defaultOf('cdek')).toBe(second);
  });
});
