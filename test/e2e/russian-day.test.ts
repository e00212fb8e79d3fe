import { openBrowserMode, screenshot } from '../helpers/browser';

type Session = Awaited<ReturnType<typeof openBrowserMode>>;

/** A shop working in Russian: what the order form, the detail and the list show in its words and formats. */
describe('browser mode: a shop\'s day in Russian', () => {
  let session: Session;
  let shop: { companyId: number };
  beforeAll(async () => {
    session = await openBrowserMode({ locale: 'ru-RU' });
    shop = { companyId: (await session.running.app.services.companies.byToken('e2e-token-12345'))!.companyId };
  });
  afterAll(() => session?.close());

  it('a new order takes street, house and office from the default sender profile\'s one-line address', async () => {
    const { page, running } = session;
    const created = await running.app.dispatch('senderProfiles.create', shop, {
      name: 'Склад на Тверской',
      sender: { countryCode: 'RU', contactName: 'Иван Петров', phone: '+79161234567', city: 'Москва', addressString: 'ул. Тверская, д. 7, корп. 2, оф. 12' },
    });
    expect(created.ok).toBe(true);
    await page.reload();
    await page.getByTestId('new-order-button').click();
    const sender = page.getByTestId('order-form').getByTestId('sender-fields');
    const box = (label: string) => sender.getByLabel(new RegExp(`^${label}( \\*)?$`));
    await expect.poll(() => box('Улица').inputValue()).toBe('ул. Тверская');
    await expect(box('Город').inputValue()).resolves.toBe('Москва');
    await expect(box('Дом').inputValue()).resolves.toBe('7 корп. 2');
    await expect(box('Квартира / офис').inputValue()).resolves.toBe('12');
    await sender.scrollIntoViewIfNeeded();
    await screenshot(page, 'russian-sender-profile');
    await page.keyboard.press('Escape');
    expect(session.pageErrors()).toEqual([]);
  });
});
