import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { command } from './define';
import { ownerOnly } from '../roles';

/** The port the LAN door listens on unless the owner picks another (the local API keeps 4318). */
export const defaultLanPort = 4319;

const hostNamePattern = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** An address of this computer to listen on: one concrete IP, never a wildcard. */
const listenAddress = z
  .union([z.ipv4(), z.ipv6()], { error: 'must be an IP address such as 192.168.1.20' })
  .transform((ip) => ipaddr.parse(ip).toString())
  .refine((ip) => !['unspecified', 'multicast', 'broadcast'].includes(ipaddr.parse(ip).range()), 'must be one address of this computer, not "all addresses" or a group');

/** A name the second PC may type (e.g. shop-pc or shop-pc.local); only these and the addresses pass the Host check. */
const hostName = z.string().trim().toLowerCase().regex(hostNamePattern, 'must be a computer name such as shop-pc or shop-pc.local');

const unique = <T>(list: T[]) => [...new Set(list)];

/** What the owner sets in Settings → Access from other computers. Off by default. */
export const lanSettingsSchema = z
  .object({
    enabled: z.boolean().default(false),
    addresses: z.array(listenAddress).max(8, 'at most 8 addresses').default([]).transform(unique),
    names: z.array(hostName).max(8, 'at most 8 names').default([]).transform(unique),
    port: z.number().int().min(1024, 'must be from 1024 to 65535').max(65535, 'must be from 1024 to 65535').default(defaultLanPort),
    /** The delivery interface (/v1) for the shop's programs on other computers; off: only the UI for packers. */
    offerInterface: z.boolean().default(false),
  })
  .refine((s) => !s.enabled || s.addresses.length > 0, { path: ['addresses'], message: 'choose at least one address to listen on' });
export type LanSettings = z.output<typeof lanSettingsSchema>;

/** Why an address could not be listened on: the UI explains each in the user's language. */
export const lanListenProblems = ['in-use', 'not-available', 'denied', 'other'] as const;

export const lanStateSchema = z.object({
  settings: lanSettingsSchema,
  /** This computer's network addresses (os.networkInterfaces), to pick from. */
  interfaces: z.array(z.object({ name: z.string(), address: z.string(), family: z.enum(['IPv4', 'IPv6']) })),
  /** The computer's own name, a good first entry for names. */
  hostname: z.string(),
  /** The HTTPS certificate, made on first use; the second PC checks this fingerprint. */
  certificate: z.object({ fingerprint256: z.string(), validTo: z.string() }).nullable(),
  /** Whether this process serves the LAN door at all (a core without a shell does not). */
  served: z.boolean(),
  /** Each address as it listens now; a problem leaves the other addresses working. */
  listeners: z.array(z.object({ address: z.string(), port: z.number().int(), url: z.string(), problem: z.enum(lanListenProblems).nullable(), detail: z.string().nullable() })),
  /** What to type on the second PC: https://<name or address>:<port>/ */
  urls: z.array(z.string()),
});
export type LanState = z.output<typeof lanStateSchema>;

/** LAN mode: the shop's other computers reach ShipDesk over HTTPS. */
export const lanCommands = {
  'lan.get': command('Access from other computers: the setting, this computer\'s addresses, the certificate and what listens now', z.object({}).default({}), lanStateSchema, ownerOnly),
  'lan.set': command('Turn access from other computers on or off, choose addresses, names and port; applied at once', lanSettingsSchema, lanStateSchema, ownerOnly),
};
