import type { Logger } from '../logger';
import { ProviderRejectedError, ProviderUnavailableError } from './provider';

/**
 * For answers a page can do without (prices, intervals): a carrier that fails is left out of the answer,
 * so the other services still answer; anything that is not a service failure is a bug and is thrown.
 */
export function leftOutOnFailure<T>(log: Logger, key: string, what: string, empty: T) {
  return (error: unknown): T => {
    if (error instanceof ProviderUnavailableError || error instanceof ProviderRejectedError) {
      log.warn(`${key}: ${what} left out: ${error.message}`);
      return empty;
    }
    throw error;
  };
}
