import { addressSchema } from './order';
import { companyDetailsSchema, innChecksumOk } from './settings';

const address = (patch: Record<string, unknown>) => addressSchema.safeParse({ contactName: 'Анна', phone: '+79161234567', city: 'Москва', countryCode: 'RU', ...patch });

describe('what the form, the import and the interface agree to take', () => {
  it('a country written by its name is its code', () => {
    for (const name of ['Россия', 'россия', 'РФ', 'Russia', 'Russian Federation', ' Российская Федерация ', 'ru']) {
      expect(address({ countryCode: name }).data?.countryCode, name).toBe('RU');
    }
    expect(address({ countryCode: 'Беларусь' }).data?.countryCode).toBe('BY');
    expect(address({ countryCode: 'Страна чудес' }).error?.issues[0]).toMatchObject({ path: ['countryCode'], message: 'must be a two-letter ISO 3166-1 country code' });
  });

  it('a phone must be a phone', () => {
    expect(address({ phone: 'телефон' }).error?.issues[0]).toMatchObject({ path: ['phone'], message: 'must be a phone number' });
  });

  it('a Russian postcode is six digits, under either of its names; another country\'s is its own business', () => {
    expect(address({ index: '12abc' }).error?.issues[0]).toMatchObject({ path: ['index'], message: 'must be 6 digits (a Russian postcode)' });
    expect(address({ postIndex: '1250' }).error?.issues[0]).toMatchObject({ path: ['postIndex'], message: 'must be 6 digits (a Russian postcode)' });
    expect(address({ index: ' 125009 ' }).data?.index).toBe('125009');
    expect(address({ index: '' }).success).toBe(true);
    expect(address({ countryCode: 'KZ', index: 'A25T0C2' }).success).toBe(true);
  });

  it('the postcode rule speaks at once, with the other errors of a half-filled address, but not for a country it cannot read', () => {
    const blank = addressSchema.safeParse({ countryCode: 'RU', index: '12abc' }); // no name, no phone yet
    expect(blank.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual(
      expect.arrayContaining([['contactName', expect.any(String)], ['phone', expect.any(String)], ['index', 'must be 6 digits (a Russian postcode)']]),
    );
    expect(address({ countryCode: 'Страна чудес', index: '12abc' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['countryCode']);
    expect(address({ contactName: '', countryCode: 'KZ', index: 'A25T0C2' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['contactName']);
  });

  it('the company\'s phone, when given, must be a phone', () => {
    expect(companyDetailsSchema.safeParse({ name: 'ООО «Ромашка»', phone: 'телефон' }).error?.issues[0]).toMatchObject({ path: ['phone'], message: 'must be a phone number' });
    expect(companyDetailsSchema.safeParse({ name: 'ООО «Ромашка»', phone: '+7 (495) 123-45-67' }).success).toBe(true);
    expect(companyDetailsSchema.safeParse({ name: 'ООО «Ромашка»', phone: '' }).data?.phone).toBeUndefined();
  });

  it('an ИНН must pass its check digits (10 and 12 digits)', () => {
    expect(innChecksumOk('7707083893')).toBe(true);
    expect(innChecksumOk('7707083894')).toBe(false);
    expect(innChecksumOk('500100732259')).toBe(true);
    expect(innChecksumOk('500100732250')).toBe(false);
    expect(companyDetailsSchema.safeParse({ name: 'ООО «Ромашка»', inn: '1234567890' }).error?.issues[0]).toMatchObject({ path: ['inn'], message: 'has a wrong check digit: check the number' });
    expect(companyDetailsSchema.safeParse({ name: 'ООО «Ромашка»', inn: '7707083893' }).success).toBe(true);
  });
});
