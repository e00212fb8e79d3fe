import { randomBytes } from 'node:crypto';
import { AppError } from '../errors';
import { heldCount, holdBytes } from '../held-bytes';
import { decodeBase64 } from './incoming-file';

const mb = 1024 * 1024;
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? { status: error.status, description: error.body.description } : error),
  );

describe('a file sent as base64', () => {
  it('decodes to the same bytes as a plain decode, in any of the ways base64 is written', async () => {
    for (const size of [0, 1, 2, 3, 1000, 3 * mb + 1]) {
      const bytes = randomBytes(size);
      const plain = bytes.toString('base64');
      const wrapped = plain.replace(/.{76}/g, '$&\r\n') + '\n';
      const urlSafe = bytes.toString('base64url');
      for (const text of [plain, wrapped, urlSafe]) expect((await decodeBase64(text, 'file.base64', 10 * mb)).equals(bytes)).toBe(true);
    }
  });

  it('is refused as not base64 when a character is out of the alphabet or padding comes before the end', async () => {
    const text = randomBytes(2 * mb).toString('base64');
    expect(await refusal(decodeBase64(`${text.slice(0, 1_500_000)}!${text.slice(1_500_000)}`, 'file.base64', 10 * mb))).toMatchObject({ status: 400, description: 'file.base64: must be base64' });
    expect(await refusal(decodeBase64(`${randomBytes(1).toString('base64')}${text}`, 'file.base64', 10 * mb))).toMatchObject({ status: 400 });
  });

  it('is refused as too large past the limit, counted in decoded bytes (line breaks do not count)', async () => {
    const bytes = randomBytes(mb);
    expect(await refusal(decodeBase64(bytes.toString('base64'), 'file.base64', mb - 10))).toMatchObject({ status: 413, description: expect.stringMatching(/larger than/) });
    const wrapped = bytes.toString('base64').replace(/.{4}/g, '$&\n');
    expect((await decodeBase64(wrapped, 'file.base64', mb)).length).toBe(mb);
  });

  it('decoded already off the main thread (held-bytes.ts): its token gives the bytes once, within the same limit', async () => {
    const bytes = randomBytes(mb);
    const { token } = holdBytes(bytes);
    expect(await decodeBase64(token, 'file.base64', mb)).toBe(bytes);
    expect(heldCount()).toBe(0);
    const big = holdBytes(randomBytes(mb));
    expect(await refusal(decodeBase64(big.token, 'file.base64', mb - 10))).toMatchObject({ status: 413, description: expect.stringMatching(/larger than/) });
    // a text that only looks like a token is text: not base64
    expect(await refusal(decodeBase64(big.token.replace(/\d+$/, '0'), 'file.base64', mb))).toMatchObject({ status: 400, description: 'file.base64: must be base64' });
  });

  it('lets other work run while a large file is decoded', async () => {
    const text = randomBytes(8 * mb).toString('base64');
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    await decodeBase64(text, 'file.base64', 10 * mb);
    clearInterval(ticking);
    expect(turns).toBeGreaterThan(1);
  });
});
