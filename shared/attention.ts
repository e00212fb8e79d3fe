import type { StatusKey } from './status-keys';

/**
 * Why an order needs the shop's attention. The service refused it (`registrationFailed`: it holds
 * nothing) or refused a change (`updateRefused`: it keeps the previous data); the parcel is coming
 * back (`returned`); or the service reports trouble (`problem`).
 */
export const attentionReasons = ['registrationFailed', 'updateRefused', 'returned', 'problem'] as const;
export type AttentionReason = (typeof attentionReasons)[number];

/** The statuses that make an order need attention, by the reason they give (uploadingError gives two). */
export const returnStatusKeys = ['returnedFromDelivery', 'returning', 'returnReady', 'returned', 'partialReturn'] as const satisfies readonly StatusKey[];
export const problemStatusKeys = ['problem', 'lost'] as const satisfies readonly StatusKey[];
export const attentionStatusKeys: readonly StatusKey[] = ['uploadingError', ...returnStatusKeys, ...problemStatusKeys];

/** The reason an order in this status needs attention, or null when it needs none. */
export function attentionReasonOf(order: { statusKey: string; providerNumber: string | null }): AttentionReason | null {
  if (order.statusKey === 'uploadingError') return order.providerNumber ? 'updateRefused' : 'registrationFailed';
  if ((returnStatusKeys as readonly string[]).includes(order.statusKey)) return 'returned';
  if ((problemStatusKeys as readonly string[]).includes(order.statusKey)) return 'problem';
  return null;
}
