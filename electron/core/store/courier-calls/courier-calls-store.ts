import type { MessageRef } from '../../../../shared/messages';
import type { CourierCallCreate } from '../../../../shared/schemas/courier-call';

/** Where a call stands: accepted by its service (maybe not numbered yet), refused, never answered, or canceled. */
export type CourierCallState = 'accepted' | 'refused' | 'failed' | 'canceled';

/** A courier call as kept: what the shop asked and what the service answered. */
export interface CourierCall {
  id: number;
  companyId: number;
  providerKey: string;
  providerConnectId: number | null;
  /** YYYY-MM-DD, HH:MM: the shop's calendar and clock. */
  date: string;
  timeStart: string;
  timeEnd: string;
  /** The call as it was asked (address, contact, totals, comment). */
  request: CourierCallCreate;
  orderIds: string[];
  state: CourierCallState;
  providerNumber: string | null;
  /** The service's reference of a call it numbers later (CDEK: the intake's uuid). */
  additionalProviderNumber: string | null;
  error: string | null;
  /** `error` as data (shared/messages) when the words are ours, for the window's language. */
  errorMessage: MessageRef | null;
  createdAt: number;
  canceledAt: number | null;
}

/** A call about to be asked of its service. */
export type NewCourierCall = Pick<CourierCall, 'companyId' | 'providerKey' | 'providerConnectId' | 'date' | 'timeStart' | 'timeEnd' | 'request' | 'orderIds' | 'createdAt'>;

/** What the service answered when it was asked. */
export type CourierCallAnswer =
  | { state: 'accepted'; providerNumber: string | null; additionalProviderNumber: string | null }
  | { state: 'refused' | 'failed'; error: string; errorMessage?: MessageRef | null };

/** What the service says later of a call it had accepted. */
export type CourierCallLater =
  | { state: 'accepted'; providerNumber: string }
  | { state: 'refused'; error: string }
  | { state: 'canceled'; at: number };

/** An order a courier call names, as the call needs it (its service, whether and how it is registered). */
/**
 * The courier calls of every company. A call is kept before its service is asked (as failed, so one that dies
 * half-way stays listed) and then settled with the answer; later changes apply only while the call is still
 * accepted, so a cancel from the shop and a change from the service never overwrite each other.
 */
export interface CourierCallsStore {
  /** Keeps a new call as "failed: the service did not answer" until `settle`; answers its id. */
  add(call: NewCourierCall, unanswered: string | ({ message: string } & MessageRef)): Promise<number>;
  /** The service's first answer. */
  settle(id: number, answer: CourierCallAnswer): Promise<void>;
  /** The company's call, or null (another company's call is never found). */
  find(companyId: number, id: number): Promise<CourierCall | null>;
  /** The company's calls, newest first. */
  page(companyId: number, page: { limit: number; offset: number }): Promise<{ calls: CourierCall[]; total: number }>;
  /**
   * Calls a service may still change: accepted and either not numbered yet or not past (date ≥ `today`), oldest
   * first; one company's or every company's.
   */
  open(today: string, companyId?: number): Promise<CourierCall[]>;
  /** Applies what the service says now, if the call is still accepted; answers whether it did. */
  update(id: number, later: CourierCallLater): Promise<boolean>;
}
