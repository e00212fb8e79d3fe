import { create } from 'zustand';
import { ErrorCode } from '../../shared/errors';
import type { Result } from '../../shared/result';
import type { Transport } from '../transport/types';

interface StorageState {
  /** The command that met a full disk (or a data folder that cannot be written); null when all is well. */
  failedCommand: string | null;
  /** Whether what failed was the database file gone under the app (its folder deleted, moved or renamed), not room. */
  databaseGone: boolean;
}

/**
 * Whether the core last said its disk is full (050007). Set by any command's answer, cleared when the
 * command that met it goes through again: the core recovers by itself once there is space, and so does the banner.
 */
export const useStorageStore = create<StorageState>(() => ({ failedCommand: null, databaseGone: false }));

export function noteCommandResult(name: string, result: Result<unknown>): void {
  const { failedCommand } = useStorageStore.getState();
  if (!result.ok && result.error.code === ErrorCode.storageFull) {
    useStorageStore.setState({ failedCommand: name, databaseGone: result.error.key === 'storage.databaseGone' });
  } else if (result.ok && failedCommand === name) useStorageStore.setState({ failedCommand: null, databaseGone: false });
}

/** The transport with every answer noted (see noteCommandResult). */
export function watchingStorage(transport: Transport): Transport {
  const invoke: Transport['invoke'] = async (name, input) => {
    const result = await transport.invoke(name, input);
    noteCommandResult(name, result);
    return result;
  };
  // A proxy, not a copy: the transport keeps its own state (a renewed token) and its methods their `this`.
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'invoke') return invoke;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
