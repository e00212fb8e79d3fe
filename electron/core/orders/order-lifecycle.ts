import { ErrorCode } from '../../../shared/errors';
import { message, said, type MessageRef } from '../../../shared/messages';
import { finalStatusKeys, type StatusKey } from '../../../shared/status-keys';
import { AppError, badRequest, describedBy, type Description } from '../errors';
import type { OutboxAction } from '../outbox/outbox';

/**
 * The order state table: which change (PUT, cancel, DELETE) an order accepts in which phase, for which
 * delivery service. Pure functions of a snapshot, so the table is tested row by row and the service
 * only carries out the plan. `docs/order-lifecycle.md` has the same table in words.
 */

/** Where an order stands, as far as changing it goes. */
export type Phase =
  /** `uploading`, its create job not tried yet: nothing has gone to the service. */
  | 'queued'
  /** `uploading`, a create attempt was made: the service may already hold it. */
  | 'sending'
  /** `uploading` with a tracking number: changes are on their way to the service. */
  | 'updating'
  /** `uploadingError` without a tracking number: the service refused it; it holds nothing. */
  | 'failed'
  /** `uploadingError` with a tracking number: the service refused a change and keeps the previous data. */
  | 'updateFailed'
  /** `uploaded`: registered and assembled, not yet shipped. */
  | 'registered'
  /** handed over (onPointIn and later), not finished. */
  | 'inTransit'
  /** delivered, returned, partially returned, lost. */
  | 'final'
  /** canceled at the client's request. */
  | 'canceled';

export interface OrderSnapshot {
  state: 'active' | 'canceled' | 'deleted';
  statusKey: string;
  providerNumber: string | null;
  /** The order's pending outbox jobs, oldest first. */
  jobs: { action: OutboxAction; attempts: number }[];
}

/** What the order's delivery service can do with a registered order. */
export interface ServiceAbilities {
  name: string;
  update: boolean;
  cancel: boolean;
  /** The adapter can take an order back at all (cancel or remove): needed when it may hold an order we drop. */
  withdraw: boolean;
}

export function phaseOf(order: OrderSnapshot): Phase {
  if (order.state === 'canceled') return 'canceled';
  switch (order.statusKey) {
    case 'uploading':
      if (order.providerNumber) return 'updating';
      return order.jobs.some((j) => j.action === 'create' && j.attempts > 0) ? 'sending' : 'queued';
    case 'uploadingError':
      return order.providerNumber ? 'updateFailed' : 'failed';
    case 'uploaded':
      return 'registered';
    default:
      return finalStatusKeys.has(order.statusKey as StatusKey) ? 'final' : 'inTransit';
  }
}

/** What PUT does: replace the data only, or replace it and queue a transfer. */
export type UpdatePlan = { kind: 'replace' } | { kind: 'transfer'; job: 'create' | 'update' };
/** What cancel / DELETE do locally, and whether the service must be told (an outbox job). */
export type DropPlan = { tellService: boolean };

/** The service cannot do this with a registered order: HTTP 403, 040306. */
export const notSupported = (description: Description) =>
  new AppError(403, { code: ErrorCode.cannotCancel, message: 'Not supported by the delivery service', ...describedBy(description) });

/**
 * The interface's sentence, which names its API paths for integrators, said in the window by a key of its own
 * (the window offers its buttons, not the paths).
 */
const windowSays = (wire: string, ref: MessageRef): Description => ({ message: wire, ...ref });

const alreadyCanceled = (orderId: string) =>
  new AppError(400, { code: ErrorCode.alreadyCanceled, message: 'Order already canceled', ...describedBy(said('order.alreadyCanceled', { orderId })) });

/** What can no longer be done with an order, as the messages below say it. */
type Deed = 'changed' | 'canceled' | 'deleted';
const deeds = { changed: message('order.deed.changed'), canceled: message('order.deed.canceled'), deleted: message('order.deed.deleted') } as const;

const handedOver = (orderId: string, statusKey: string, what: Deed) =>
  badRequest(said('order.handedOver', { orderId, status: statusKey, what: deeds[what] }));

const finished = (orderId: string, statusKey: string, what: Deed) =>
  badRequest(said('order.finished', { orderId, status: statusKey, what: deeds[what] }));

/** How to change the order's data, or the error that explains why not. */
export function planUpdate(orderId: string, order: OrderSnapshot, service: ServiceAbilities): UpdatePlan {
  const phase = phaseOf(order);
  switch (phase) {
    case 'queued':
      return { kind: 'replace' };
    case 'sending':
      // The change follows the transfer in flight: the outbox runs an order's jobs one after another, so
      // the update goes once the order is registered (or registers the new data if the transfer is refused).
      if (service.update) return { kind: 'transfer', job: 'update' };
      throw badRequest(said('order.transferring', { orderId, service: service.name }));
    case 'failed':
      return { kind: 'transfer', job: 'create' };
    case 'updating':
    case 'updateFailed':
    case 'registered':
      if (!service.update) {
        throw notSupported(
          windowSays(
            `${service.name} cannot change a registered order. ` +
              (service.cancel ? 'Cancel it (GET /orders/{orderId}/cancel) and create it again.' : 'Delete it (DELETE /orders/{orderId}) and create it again; it gets a new tracking number.'),
            message(service.cancel ? 'order.noChangeCancelFirst' : 'order.noChangeDeleteFirst', { service: service.name }),
          ),
        );
      }
      return { kind: 'transfer', job: 'update' };
    case 'inTransit':
      throw handedOver(orderId, order.statusKey, 'changed');
    case 'final':
      throw finished(orderId, order.statusKey, 'changed');
    case 'canceled':
      throw badRequest(said('order.canceledCreateNew', { orderId }));
  }
}

/** Whether the order can be canceled and whether its service must be told. */
export function planCancel(orderId: string, order: OrderSnapshot, service: ServiceAbilities): DropPlan {
  const phase = phaseOf(order);
  switch (phase) {
    case 'canceled':
      throw alreadyCanceled(orderId);
    case 'queued':
    case 'failed':
      return { tellService: false }; // the service never got it
    case 'sending':
      if (!service.withdraw) throw notSupported(said('order.noCancelWhileSending', { service: service.name }));
      return { tellService: true };
    case 'final':
      throw finished(orderId, order.statusKey, 'canceled');
    case 'updating':
    case 'updateFailed':
    case 'registered':
    case 'inTransit':
      if (!service.cancel) {
        throw notSupported(
          windowSays(
            `${service.name} cannot cancel a registered order.` +
              (!service.update ? ' Delete it instead (DELETE /orders/{orderId}); registering it again gives a new tracking number.' : ''),
            message(service.update ? 'order.noCancelRegistered' : 'order.noCancelDeleteInstead', { service: service.name }),
          ),
        );
      }
      if (phase === 'inTransit') throw handedOver(orderId, order.statusKey, 'canceled');
      return { tellService: true };
  }
}

/** Whether the order can be deleted and whether its service must be told. */
export function planDelete(orderId: string, order: OrderSnapshot, service: ServiceAbilities): DropPlan {
  const phase = phaseOf(order);
  switch (phase) {
    case 'canceled':
      return { tellService: false }; // the service has it canceled already; this only clears it away
    case 'queued':
    case 'failed':
      return { tellService: false };
    case 'sending':
      if (!service.withdraw) throw notSupported(said('order.noTakeBackWhileSending', { service: service.name }));
      return { tellService: true };
    case 'updateFailed':
      return { tellService: service.withdraw }; // the interface: uploadingError + DELETE, any service
    case 'final':
      throw finished(orderId, order.statusKey, 'deleted');
    case 'updating':
    case 'registered':
    case 'inTransit':
      if (service.update || service.cancel) {
        throw notSupported(
          windowSays(
            `${service.name} keeps registered orders: ` +
              [service.cancel && 'cancel it (GET /orders/{orderId}/cancel)', service.update && 'change it (PUT /orders/{orderId})'].filter(Boolean).join(' or ') +
              ' instead of deleting it',
            message('order.keepsRegistered', { service: service.name, instead: message(service.cancel && service.update ? 'order.instead.either' : service.cancel ? 'order.instead.cancel' : 'order.instead.change') }),
          ),
        );
      }
      if (phase === 'inTransit') throw handedOver(orderId, order.statusKey, 'deleted');
      return { tellService: service.withdraw };
  }
}
