import { watchingStorage } from '../stores/storage-store';
import type { Transport } from './types';

let current: Transport | undefined;

/** Installs the transport chosen at start (see start-transport.ts). */
export function setTransport(transport: Transport | undefined): void {
  current?.dispose();
  current = transport && watchingStorage(transport);
}

/** The transport of this window; stores call it, components go through stores. */
export function getTransport(): Transport {
  if (!current) throw new Error('ShipDesk: the transport is used before it was chosen');
  return current;
}
