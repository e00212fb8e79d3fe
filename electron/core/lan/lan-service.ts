import { hostname } from 'node:os';
import { lanSettingsSchema, type LanSettings, type LanState } from '../../../shared/contract/lan';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { AccountsStore } from '../store/accounts/accounts-store';
import { readAppSetting } from '../settings/app-setting';
import { ensureCertificate, readCertificate, type LanCertificate } from './certificate';
import { lanInterfaces, type LanInterface } from './network-interfaces';

const settingsKey = 'lan';

/** What listens on the shop's network now: one entry per address. */
export type LanListeners = LanState['listeners'];

/** The shell's side of LAN mode (lan-door.ts): applies a setting and tells what listens. */
export interface LanDoorControl {
  apply(settings: LanSettings): Promise<void>;
  listeners(): LanListeners;
}

export interface LanServiceDeps {
  accounts: AccountsStore;
  clock: Clock;
  log: Logger;
  dataDir: string;
  /** Test seam: the machine's addresses. */
  interfaces?: () => LanInterface[];
}

/** Where a second PC types its way in; IPv6 addresses go in brackets. */
export const lanUrl = (host: string, port: number) => `https://${host.includes(':') ? `[${host}]` : host}:${port}/`;

/**
 * LAN mode's setting (app-wide, off by default) and its state. The door itself is the shell's (it listens);
 * `set` stores the setting, then has the door follow it at once.
 */
export function createLanService({ accounts, clock, log, dataDir, interfaces = lanInterfaces }: LanServiceDeps) {
  let door: LanDoorControl | null = null;

  // A damaged row means LAN mode off: the defaults.
  const settings = (): Promise<LanSettings> => readAppSetting(accounts, log, settingsKey, lanSettingsSchema);

  async function state(): Promise<LanState> {
    const current = await settings();
    const certificate = readCertificate(dataDir);
    const listeners = door?.listeners() ?? [];
    return {
      settings: current,
      interfaces: interfaces(),
      hostname: hostname().toLowerCase(),
      certificate: certificate && { fingerprint256: certificate.fingerprint256, validTo: certificate.validTo.toISOString() },
      served: door !== null,
      listeners,
      urls: current.enabled ? [...current.names, ...current.addresses].map((host) => lanUrl(host, current.port)) : [],
    };
  }

  return {
    settings,
    state,

    /** Stores the setting and has the door follow it; a busy port or a missing address shows in the listeners. */
    async set(input: LanSettings): Promise<LanState> {
      await accounts.saveAppSetting(settingsKey, input, clock.now());
      await door?.apply(input);
      return state();
    },

    /** The HTTPS certificate for these names and addresses, made (or made anew) when needed. */
    certificate: (current: LanSettings): Promise<LanCertificate> =>
      ensureCertificate(dataDir, { names: current.names, addresses: current.addresses, now: clock.now() }),

    /** The shell that listens registers its door; it is told the stored setting at once. */
    async attach(control: LanDoorControl): Promise<void> {
      door = control;
      await control.apply(await settings());
    },

    detach(): void {
      door = null;
    },
  };
}

export type LanService = ReturnType<typeof createLanService>;
