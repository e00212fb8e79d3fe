import { randomBytes } from 'node:crypto';
import { heldCount, holdBytes, takeHeldBytes } from './held-bytes';
import { checkInputShape } from './validation';

describe('held bytes (a request body\'s file decoded off the main thread)', () => {
  it('stand in the request as plain text that passes the input checks with no exception of their own', () => {
    const { token, release } = holdBytes(randomBytes(16));
    try {
      expect(token).not.toContain('\u0000');
      expect(() => checkInputShape({ file: { base64: token } })).not.toThrow();
      // a NUL is still refused everywhere, in the same field as ever
      expect(() => checkInputShape({ file: { base64: `${token}\u0000` } })).toThrow(expect.objectContaining({ body: expect.objectContaining({ errors: [{ field: 'file.base64', message: expect.stringMatching(/NUL/) }] }) }));
    } finally {
      release();
    }
    expect(heldCount()).toBe(0);
  });

  it('are taken once by their own token; a text that is not one (another token, the same made up) takes nothing', () => {
    const bytes = randomBytes(16);
    const { token } = holdBytes(bytes);
    const other = holdBytes(randomBytes(16));
    other.release();
    expect(takeHeldBytes(other.token)).toBeUndefined(); // released with its request
    expect(takeHeldBytes(`held:${'0'.repeat(64)}`)).toBeUndefined();
    expect(takeHeldBytes(token.replace(/.$/, (c) => (c === '0' ? '1' : '0')))).toBeUndefined();
    expect(takeHeldBytes(token)).toBe(bytes);
    expect(takeHeldBytes(token)).toBeUndefined();
    expect(heldCount()).toBe(0);
  });
});
