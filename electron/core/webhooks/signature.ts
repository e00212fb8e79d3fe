import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header every call carries: `sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed by the webhook's secret. */
export const signatureHeader = 'X-ShipDesk-Signature';

/** A new webhook's secret: 256 random bits, as text a site can keep in its settings. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** The header's value for a body. */
export const signBody = (secret: string, body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** What a receiving site does (docs/api.md shows it in PHP): recompute and compare in constant time. */
export function verifyBody(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
