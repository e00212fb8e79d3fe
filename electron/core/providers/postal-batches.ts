import type { TrackedShipment } from './provider';

/**
 * Batches (партии) of a postal service whose orders wait in its backlog until the shop puts them into a batch for a
 * sending date: only then does each get its tracking number (ШПИ). A batch is checked in (the electronic register Ф103
 * is sent to the post office) and its register printed; each parcel's own forms (address label Ф7, money order Ф112
 * for cash on delivery) come from the carrier's `labels`. Russian Post is the one service with them.
 */
export interface PostalBatches {
  /**
   * Puts registered shipments into batches for the sending date (YYYY-MM-DD); the service splits them by mail type
   * and category. Each shipment put in comes back with its batch and tracking number; the rest with the service's words.
   */
  form(shipments: TrackedShipment[], sendingDate: string): Promise<FormedBatches>;
  /** Sends the batch's Ф103 to the post office; a batch already checked in is left as it is. `providerConnectId`: the account it is at. */
  checkIn(batchName: string, providerConnectId?: number): Promise<void>;
  /** The batch's Ф103 register, as the service prints it (once checked in). */
  register(batchName: string, providerConnectId?: number): Promise<Uint8Array>;
}

export interface BatchSummary {
  name: string;
  mailType: string;
  mailCategory: string | null;
  sendingDate: string;
  shipments: number;
}

export interface FormedBatches {
  batches: BatchSummary[];
  placed: { providerNumber: string; batchName: string; barcode: string }[];
  refused: { providerNumber: string; message: string }[];
}
