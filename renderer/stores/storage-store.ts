import { create } from 'zustand';
import { ErrorCode, type ErrorBody } from '../../shared/errors';
import type { Result } from '../../shared/result';
import type { Transport } from '../transport/types';

interface StorageState {
  /**
   * The command that met a full disk, a data folder that cannot be written or the database file gone (050007), with
   * the error it got (which of these it was: its key, see isDatabaseGone); null when all is well.
   */
  failure: { command: string; error: ErrorBody } | null;
}

/**
 * Whether an error is the banner's to say (050007: a full disk, a data folder that cannot be written, the database
 * file gone). It is said there once, above every page, and nowhere else: not as a toast, not under a form's field.
 */
export const saidByBanner = (error: ErrorBody): boolean => error.code === ErrorCode.storageFull;

/** Whether a 050007 was the database file gone under the app (its folder deleted, moved or renamed), not room. */
export const isDatabaseGone = (error: ErrorBody): boolean => error.key === 'storage.databaseGone';

/**
 * Whether the core last said its disk is full (050007). Set by any command's answer, cleared when the
 * command that met it goes through again: the core recovers by itself once there is space, and so does the banner.
 */
export const useStorageStore = create<StorageState>(() => ({ failure: null }));

export function noteCommandResult(name: string, result: Result<unknown>): void {
  const { failure } = useStorageStore.getState();
  if (!result.ok && saidByBanner(result.error)) useStorageStore.setState({ failure: { command: name, error: result.error } });
  else if (result.ok && failure?.command === name) useStorageStore.setState({ failure: null });
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
