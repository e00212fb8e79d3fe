import type { ZodError } from 'zod';
import { ErrorCode } from '../../../shared/errors';
import { fieldReasons, said, type MessageParam, type MessageRef } from '../../../shared/messages';
import { AppError } from '../errors';
import { ProviderRejectedError, ProviderUnavailableError } from './provider';

/**
 * How a delivery service's failure reads to the shop, in one place: beside an order that could not be
 * printed, on a courier call it refused, and as the interface's 503 when it could not be asked now.
 */

/** The service's reasons, field by field where it gave them. */
export const refusalReasons = (error: ProviderRejectedError): string =>
  error.errors.length ? error.errors.map((e) => `${e.field}: ${e.message}`).join('; ') : error.description;

/** A failure as data, when its words are ours (shared/messages); undefined for a service's own words or a bug's. */
export const failureRef = (error: unknown): MessageRef | undefined =>
  error instanceof ProviderUnavailableError || error instanceof ProviderRejectedError ? error.ref : undefined;

/** A failure as a message's parameter: by key when it is ours, else its own text. */
export const failureReason = (error: unknown): MessageParam => failureRef(error) ?? (error instanceof Error ? error.message : String(error));

/** The service's reasons as a message's parameter: each field error by its key where it has one. */
export const refusalReason = (error: ProviderRejectedError): MessageParam => (error.errors.length ? fieldReasons(error.errors) : (error.ref ?? error.description));

/**
 * The line beside an order the service could not print or act on, as the interface's English and by key (its
 * reasons keyed where they are ours); null for anything that is not a service failure (a bug).
 */
export function serviceFailure(serviceName: string, error: unknown): ({ message: string } & MessageRef) | null {
  if (error instanceof ProviderUnavailableError) return said('printable.serviceNotAnswering', { service: serviceName, reason: failureReason(error) });
  if (error instanceof ProviderRejectedError) return said('printable.serviceRefused', { service: serviceName, reason: refusalReason(error) });
  return null;
}

/** What a refused or unreachable call keeps as its error (a courier call the service did not take), as the interface's text and by key. */
export function callFailure(error: ProviderRejectedError | ProviderUnavailableError): { message: string; ref: MessageRef | null } {
  if (error instanceof ProviderUnavailableError) {
    const { message, ...ref } = said('provider.unreachableCall', { reason: failureReason(error) });
    return { message, ref };
  }
  const reason = refusalReason(error);
  return { message: refusalReasons(error), ref: typeof reason === 'object' ? reason : null };
}

/** The interface's answer when the service cannot be asked now: 503, try again shortly. */
export const serviceUnavailable = (error: ProviderUnavailableError) =>
  new AppError(503, { code: ErrorCode.internal, message: 'Delivery service unavailable', description: `${error.message}. Try again in a minute.` });

/** An answer the service gave in a shape its schema does not accept: an outage (retried), not a refusal of the order. */
export const unreadableAnswer = (serviceName: MessageParam, error: ZodError) => {
  const issue = error.issues[0];
  return new ProviderUnavailableError(said('provider.unreadableAnswer', { service: serviceName, detail: `${issue?.path.join('.')} ${issue?.message}` }));
};
