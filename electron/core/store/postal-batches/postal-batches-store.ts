import type { OrderCreate } from '../../../../shared/schemas/order';

/** A batch a postal service formed for the shop (Russian Post's партия), as kept. */
export interface PostalBatch {
  id: number;
  companyId: number;
  providerKey: string;
  providerConnectId: number | null;
  /** The service's name of it. */
  name: string;
  mailType: string;
  mailCategory: string | null;
  /** YYYY-MM-DD. */
  sendingDate: string;
  createdAt: number;
  /** When its Ф103 was sent to the post office; null before. */
  checkedInAt: number | null;
  orderIds: number[];
}

/** A registered order waiting to be handed over, as a batch needs it. */
export interface BatchableOrder {
  id: number;
  clientNumber: string;
  providerNumber: string;
  additionalProviderNumber: string | null;
  providerConnectId: number | null;
  order: OrderCreate;
  /** The batch it is in already, if any. */
  batchId: number | null;
}

export interface NewPostalBatch {
  name: string;
  mailType: string;
  mailCategory: string | null;
  sendingDate: string;
  /** The orders placed in it, each with the tracking number it got there. */
  placed: { orderId: number; barcode: string }[];
}

/**
 * Postal batches of every company, and the orders in them. Keeping a batch also gives each placed order its tracking
 * number (the order's barcode and second number), in the same transaction, so an order is never in a batch without it.
 */
export interface PostalBatchesStore {
  /** The company's registered, live orders of the service among `ids` that wait to be handed over. */
  waiting(companyId: number, providerKey: string, ids: number[]): Promise<BatchableOrder[]>;
  /** Keeps the batches (one formed again is the same batch) and puts their orders in them; answers them as kept. */
  keep(companyId: number, providerKey: string, providerConnectId: number | null, batches: NewPostalBatch[], at: number): Promise<PostalBatch[]>;
  /** The company's batches, newest first. */
  list(companyId: number, limit: number): Promise<PostalBatch[]>;
  /** The company's batch, or null (another company's is never found). */
  find(companyId: number, id: number): Promise<PostalBatch | null>;
  checkedIn(id: number, at: number): Promise<void>;
}
