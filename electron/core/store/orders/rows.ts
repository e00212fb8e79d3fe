import type { Selectable } from 'kysely';
import { storedMessage, type MessageRef } from '../../../../shared/messages';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { OrdersTable, OrderStatusesTable, OutboxTable } from '../schema';
import type { ListedOrder, OutboxJob, StatusRecord, StoredOrder } from './orders-store';
import { prepareOrder, type PreparedOrder } from './prepared-order';

/** The orders aggregate's rows as models, and models as rows: the one place they convert (SQLite's tables). */

export type OrderRow = Selectable<OrdersTable>;

/** The order as the services see it. */
export function toOrder(row: OrderRow): StoredOrder {
  return {
    ...toListedOrder(row),
    payload: JSON.parse(row.payload) as OrderCreate,
    quantityDelivered: row.quantity_delivered ? (JSON.parse(row.quantity_delivered) as Record<string, number>) : null,
  };
}

/** The order as the list shows it: its columns only, the payload left unread. */
export function toListedOrder(row: Omit<OrderRow, 'payload' | 'quantity_delivered'>): ListedOrder {
  return {
    id: row.id,
    companyId: row.company_id,
    clientNumber: row.client_number,
    providerKey: row.provider_key,
    providerConnectId: row.provider_connect_id,
    state: row.state,
    statusKey: row.status_key,
    statusDescription: row.status_description,
    statusDescriptionMessage: storedMessage(row.status_description_message),
    statusChangedAt: row.status_changed_at,
    providerNumber: row.provider_number,
    additionalProviderNumber: row.additional_provider_number,
    returnProviderNumber: row.return_provider_number,
    barcode: row.barcode,
    trackingUrl: row.tracking_url,
    recipientName: row.recipient_name,
    recipientPhone: row.recipient_phone,
    recipientCity: row.recipient_city,
    codKopecks: row.cod_kopecks,
    assessedKopecks: row.assessed_kopecks,
    quotedDeliveryKopecks: row.quoted_delivery_kopecks ?? null,
    deliveryKopecks: row.delivery_kopecks ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    canceledAt: row.canceled_at,
    deletedAt: row.deleted_at,
    handoverId: row.handover_id ?? null,
    attentionSeenAt: row.attention_seen_at ?? null,
  };
}

/** A recorded status as the services see it. */
export function toStatus(row: Selectable<OrderStatusesTable>): StatusRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    companyId: row.company_id,
    key: row.key,
    description: row.description,
    descriptionMessage: storedMessage(row.description_message),
    createdAt: row.created_at,
    providerCode: row.provider_code,
    providerName: row.provider_name,
    providerDescription: row.provider_description,
    createdProvider: row.created_provider,
    errorCode: row.error_code,
  };
}

export function toJob(row: Selectable<OutboxTable>): OutboxJob {
  return {
    id: row.id,
    orderId: row.order_id,
    action: row.action,
    attempts: row.attempts,
    failedAttempts: row.failed_attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
  };
}

/** The columns kept beside the payload, for lists, searches and the outbox (every path that writes an order uses these). */
export function columnsOf(payload: OrderCreate) {
  return preparedColumns(prepareOrder(payload));
}

/** A prepared order as the orders table's columns. */
export function preparedColumns(o: PreparedOrder) {
  return {
    client_number: o.clientNumber,
    provider_key: o.providerKey,
    provider_connect_id: o.providerConnectId,
    recipient_name: o.recipientName,
    recipient_phone: o.recipientPhone,
    recipient_city: o.recipientCity,
    cod_kopecks: o.codKopecks,
    assessed_kopecks: o.assessedKopecks,
    quoted_delivery_kopecks: o.quotedDeliveryKopecks,
    delivery_kopecks: o.deliveryKopecks,
    payload: o.json,
  };
}

/** A message as stored beside its English text (JSON), or null. */
export const messageJson = (ref: MessageRef | null | undefined): string | null => (ref ? JSON.stringify(ref) : null);
