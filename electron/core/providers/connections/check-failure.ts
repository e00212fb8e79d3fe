import { said, type MessageRef } from '../../../../shared/messages';
import { ProviderRejectedError, ProviderUnavailableError } from '../provider';

/**
 * Why a connection check failed, for the window: our own message by its key (the service could not be
 * reached…), or the service's own words inside a translated frame. The text is what it always was.
 */
export function checkFailure(error: unknown): { message: string } & MessageRef {
  const text = error instanceof Error ? error.message : String(error);
  const ref = error instanceof ProviderUnavailableError || error instanceof ProviderRejectedError ? error.ref : undefined;
  return { ...said('conn.failed', { reason: ref ?? text }), message: text };
}
