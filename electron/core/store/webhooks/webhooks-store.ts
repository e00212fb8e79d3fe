import type { MessageRef } from '../../../../shared/messages';
import type { webhookTypes } from '../../../../shared/contract/webhooks';

/**
 * Status webhooks of the companies, the calls to make (queued with each recorded status, in the same
 * transaction) and every attempt of them. Times are epoch milliseconds.
 */

export type WebhookType = (typeof webhookTypes)[number];

export interface Webhook {
  id: number;
  uuid: string;
  companyId: number;
  type: WebhookType;
  url: string;
  secret: string;
  createdAt: number;
}

export type NewWebhook = Omit<Webhook, 'id'>;

/** One attempt of a call, with the status it carried (the orders store knows it; null when the call named none). */
export interface WebhookAttemptRecord {
  id: number;
  webhookId: number;
  deliveryId: number;
  at: number;
  httpStatus: number | null;
  error: string | null;
  /** `error` as data (shared/messages), for the window's language. */
  errorMessage: MessageRef | null;
  statusId: number | null;
}

/** A call due now, its attempt already counted. */
export interface DueWebhookCall {
  deliveryId: number;
  /** This attempt's number, from 1. */
  attempt: number;
  /** The claim's end: from then the call is due again (to any instance), so it must have gone out before. */
  until: number;
  /** When it was due before this claim (where giveBack puts it again). */
  dueAt: number;
  statusId: number;
  webhook: Pick<Webhook, 'id' | 'uuid' | 'url' | 'secret' | 'companyId'>;
}

export interface WebhooksStore {
  webhook(companyId: number, uuid: string): Promise<Webhook | undefined>;
  /**
   * The company's webhook for this type and url, made now when it has none ('full' when it has `max`
   * already). Two registrations at once get the same webhook.
   */
  ensureWebhook(webhook: NewWebhook, max: number): Promise<Webhook | 'full'>;
  /** One page of the company's webhooks, oldest first. */
  webhooks(companyId: number, page: { offset: number; limit: number }): Promise<{ total: number; rows: Webhook[] }>;
  /** Every company's webhooks (by company, oldest first) with the company's name and the calls waiting. */
  allWebhooks(): Promise<(Webhook & { companyName: string; waiting: number })[]>;
  /** Attempts of each webhook, newest first, `perWebhook` of them after skipping `offset`. */
  attempts(webhookIds: number[], perWebhook: number, offset?: number): Promise<Map<number, WebhookAttemptRecord[]>>;
  attemptCount(webhookId: number): Promise<number>;
  /** Removes a webhook with its calls and attempts. */
  deleteWebhook(id: number): Promise<void>;

  /**
   * Up to `limit` calls due at `now`, oldest first, each with its attempt counted and its next one moved
   * `retryDelays[attempt - 1]` later (`leaseMs` past the list), before anyone calls out. A call is claimed once:
   * another instance claiming at the same moment does not get it.
   */
  claimDueCalls(now: number, limit: number, retryDelays: readonly number[], leaseMs: number): Promise<DueWebhookCall[]>;
  /**
   * A claimed call not made after all (it could not have finished before its claim ends): due again when it was
   * before the claim, this attempt not counted. Nothing when the call is no longer this claim's (claimed again
   * since, finished or gone).
   */
  giveBack(call: Pick<DueWebhookCall, 'deliveryId' | 'attempt' | 'dueAt'>): Promise<void>;
  hasDueCalls(now: number): Promise<boolean>;
  /**
   * Records an attempt and, when given, the call's end; nothing when the call is gone (its webhook was
   * deleted meanwhile).
   */
  recordAttempt(call: { deliveryId: number; webhookId: number }, attempt: { at: number; httpStatus: number | null; error: ({ message: string } & MessageRef) | null; finished?: 'delivered' | 'failed' }): Promise<void>;
  /** Forgets calls that finished before this time, with their attempts. */
  forgetFinished(before: number): Promise<void>;
}
