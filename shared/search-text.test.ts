import { phoneDigits, recipientSearchText, searchVariants } from './search-text';

describe('search normalisation', () => {
  it('writes every form of a Russian phone as the same digits', () => {
    expect(['+7 (916) 123-45-67', '8 916 123-45-67', '89161234567', '79161234567'].map(phoneDigits)).toEqual(Array(4).fill('79161234567'));
    expect(phoneDigits('телефон')).toBe('');
  });

  it('keeps the recipient\'s fields folded and apart, the phone as digits', () => {
    expect(recipientSearchText({ name: 'Ольга Семёнова', phone: '8 (916) 123-45-67', email: 'Olga@Mail.ru', city: 'Уфа', street: 'ул. Ленина', addressString: null }))
      .toBe('ольга семенова | olga@mail.ru | уфа | ул. ленина | 79161234567');
  });

  it('looks for a typed phone by its digits, a leading 8 also as 7', () => {
    expect(searchVariants('+7 (916) 123-45-67')).toEqual(['+7 (916) 123-45-67', '79161234567']);
    expect(searchVariants('917 444')).toEqual(['917 444', '917444']);
    expect(searchVariants('8 916')).toEqual(['8 916', '8916', '7916']);
    expect(searchVariants(' Семёнова ')).toEqual(['семенова']);
  });
});
