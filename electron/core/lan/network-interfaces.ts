import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

export interface LanInterface {
  name: string;
  address: string;
  family: 'IPv4' | 'IPv6';
}

/**
 * The addresses of this computer the shop's other PCs can reach: loopback and IPv6 link-local ones left out
 * (a link-local address needs its zone to listen on, and a typed one can still be used).
 */
export function lanInterfaces(source: () => NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces): LanInterface[] {
  return Object.entries(source()).flatMap(([name, infos]) =>
    (infos ?? [])
      .filter((info) => !info.internal && !(info.family === 'IPv6' && info.scopeid))
      .map((info) => ({ name, address: info.address, family: info.family })),
  );
}
