import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';

/** The LAN door's HTTPS key and certificate, and what the second PC checks. */
export interface LanCertificate {
  key: string;
  cert: string;
  /** SHA-256 of the certificate, as browsers show it (AB:CD:…). */
  fingerprint256: string;
  validTo: Date;
}

export const certificateFile = (dataDir: string) => join(dataDir, 'lan-certificate.pem');
export const keyFile = (dataDir: string) => join(dataDir, 'lan-key.pem');

const validityDays = 825;
/** A certificate this close to its end is made anew, so a shop never meets an expired one. */
const renewBeforeMs = 30 * 86_400_000;

/** The certificate kept in the data folder, or null when there is none (LAN mode never turned on) or it is unreadable. */
export function readCertificate(dataDir: string): LanCertificate | null {
  if (!existsSync(certificateFile(dataDir)) || !existsSync(keyFile(dataDir))) return null;
  try {
    const cert = readFileSync(certificateFile(dataDir), 'utf8');
    const key = readFileSync(keyFile(dataDir), 'utf8');
    const x509 = new X509Certificate(cert);
    if (!x509.checkPrivateKey(createPrivateKey(key))) return null;
    return { key, cert, fingerprint256: x509.fingerprint256, validTo: new Date(x509.validTo) };
  } catch {
    return null;
  }
}

/** Whether the certificate names every address and name the second PC may type (else its browser warns twice). */
function covers(cert: string, names: readonly string[], addresses: readonly string[]): boolean {
  const x509 = new X509Certificate(cert);
  return names.every((name) => x509.checkHost(name, { wildcards: false }) !== undefined) && addresses.every((ip) => x509.checkIP(ip) !== undefined);
}

/** Writes a secret file readable by the owner only, whole or not at all. */
function writePrivate(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * The certificate of the LAN door, made on first use and kept (0600) in the data folder. It is made anew only
 * when it does not name an address or name the owner added, or nears its end: the fingerprint the second PC
 * trusted stays the same otherwise.
 */
export async function ensureCertificate(dataDir: string, wanted: { names: readonly string[]; addresses: readonly string[]; now: number }): Promise<LanCertificate> {
  const kept = readCertificate(dataDir);
  if (kept && kept.validTo.getTime() - wanted.now > renewBeforeMs && covers(kept.cert, wanted.names, wanted.addresses)) return kept;

  const names = [...new Set(['localhost', ...wanted.names])];
  const addresses = [...new Set(['127.0.0.1', ...wanted.addresses])];
  const notBeforeDate = new Date(wanted.now - 86_400_000); // a second PC whose clock is a little behind still accepts it
  // Loaded only here: the generator's ASN.1 libraries would slow every start of a shop that never turns LAN mode on.
  const { generate } = await import('selfsigned');
  const made = await generate([{ name: 'commonName', value: wanted.names[0] ?? 'ShipDesk' }, { name: 'organizationName', value: 'ShipDesk' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(wanted.now + validityDays * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [...names.map((value) => ({ type: 2 as const, value })), ...addresses.map((ip) => ({ type: 7 as const, ip: ipaddr.parse(ip).toString() }))] },
    ],
  });
  writePrivate(keyFile(dataDir), made.private);
  writePrivate(certificateFile(dataDir), made.cert);
  const x509 = new X509Certificate(made.cert);
  return { key: made.private, cert: made.cert, fingerprint256: x509.fingerprint256, validTo: new Date(x509.validTo) };
}
