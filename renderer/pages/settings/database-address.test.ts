import { splitPassword, withPassword } from './database-address';

describe('the PostgreSQL address in Settings → Database, its password kept apart', () => {
  it('takes a pasted address apart: the address without the password, and the password decoded', () => {
    expect(splitPassword('postgres://shop:s3cret@192.168.1.10:5432/shipdesk')).toEqual({ address: 'postgres://shop@192.168.1.10:5432/shipdesk', password: 's3cret' });
    expect(splitPassword('postgresql://shop:p%40ss%3Aw0rd@db.local/shipdesk?sslmode=require')).toEqual({
      address: 'postgresql://shop@db.local/shipdesk?sslmode=require',
      password: 'p@ss:w0rd',
    });
  });

  it('leaves an address without a password, or not yet typed to its "@", as it is', () => {
    for (const text of ['postgres://shop@db.local/shipdesk', 'postgres://db.local/shipdesk', 'postgres://shop:sec', 'mysql://root:pw@localhost/shop', '']) {
      expect(splitPassword(text)).toEqual({ address: text, password: null });
    }
  });

  it('puts the password back, encoded, for the core; with or without a user', () => {
    expect(withPassword('postgres://shop@192.168.1.10:5432/shipdesk', 'p@ss:w0rd')).toBe('postgres://shop:p%40ss%3Aw0rd@192.168.1.10:5432/shipdesk');
    expect(withPassword('postgres://db.local/shipdesk', 'pw')).toBe('postgres://:pw@db.local/shipdesk');
    expect(withPassword('postgres://shop@db.local/shipdesk', '')).toBe('postgres://shop@db.local/shipdesk');
    const pasted = 'postgres://shop:p%40ss@db.local:5433/shipdesk';
    const { address, password } = splitPassword(pasted);
    expect(withPassword(address, password!)).toBe(pasted);
  });
});
