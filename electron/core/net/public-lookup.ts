import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Every address a host name resolves to (tests resolve their own names). */
export type ResolveAll = (hostname: string) => Promise<string[]>;

export const systemResolveAll: ResolveAll = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Whether an address is on the public internet. Loopback, private, link-local, carrier-grade NAT, multicast,
 * unspecified, reserved, and IPv6 forms of those (IPv4-mapped, unique local) are not: a link a shop gives us
 * must not reach the shop's own network, its router or this very server.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** A URL's host without the brackets of an IPv6 literal. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** A host written as a number that is not public: the socket connects to it without any lookup, so it is refused before. */
export const isLocalLiteral = (host: string) => ipaddr.isValid(host) && !isPublicAddress(host);

/**
 * A socket `lookup` that resolves only to public addresses. The check happens inside the connection's own
 * resolution, so the address checked is the address connected to: a name cannot answer a public address to
 * the check and a local one to the socket (DNS rebinding). A name with no address, or with any address
 * that is not public, fails with `refusal()` (a name that does not resolve with `unresolved()`).
 */
export function publicOnlyLookup(options: { resolve?: ResolveAll; refusal: () => Error; unresolved: () => Error }): LookupFunction {
  const resolve = options.resolve ?? systemResolveAll;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0 || !addresses.every(isPublicAddress)) return callback(options.refusal(), '', 4);
        const found: LookupAddress[] = addresses.map((address) => ({ address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 }));
        if (lookupOptions.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, found);
        callback(null, found[0].address, found[0].family);
      },
      () => callback(options.unresolved(), '', 4),
    );
  };
}
