import type { ImportPreset } from '../../../../shared/contract/import';
import type { UploadSettings } from '../../../../shared/schemas/upload';

/**
 * Order drafts (the form as typed, per company) and the import wizard's saved column mappings (presets).
 * Times are epoch milliseconds.
 */

export interface StoredDraft {
  id: string;
  /** The form exactly as it was sent. */
  data: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

/** A draft as the drafts list shows it: the fields taken from its data when it was saved. */
export interface DraftListing {
  id: string;
  clientNumber: string | null;
  recipient: string | null;
  providerKey: string | null;
  createdAt: number;
  updatedAt: number;
}

/** One order of an import into drafts: its checked payload (JSON text) to keep as a draft, or the failure to record. */
export type ImportedDraft =
  | { seq: number; row: number; lastRow: number; clientNumber: string; json: string }
  | { seq: number; row: number; lastRow: number; clientNumber: string; error: string };

export interface StoredPreset {
  id: number;
  name: string;
  settings: UploadSettings;
  headers: ImportPreset['headers'];
  createdAt: number;
  updatedAt: number;
}

export interface DraftsStore {
  /** Inserts the draft or replaces the company's draft of that id. */
  saveDraft(companyId: number, draft: { id: string; data: Record<string, unknown>; at: number }): Promise<void>;
  draft(companyId: number, id: string): Promise<StoredDraft | undefined>;
  /** One page of the company's drafts, last saved first. */
  drafts(companyId: number, page: { limit: number; offset: number }): Promise<{ total: number; rows: DraftListing[] }>;
  /** Whether there was such a draft to remove. */
  deleteDraft(companyId: number, id: string): Promise<boolean>;
  /** The company's drafts that carry one of these client numbers: clientNumber → draft id. */
  draftsByClientNumber(companyId: number, clientNumbers: string[]): Promise<Map<string, string>>;
  /**
   * One batch of an import into drafts, in one transaction: a draft (id from `newId`) per payload, and the
   * import's record of every item. Answers the drafts made by seq.
   */
  writeImportedDrafts(companyId: number, importId: number, items: ImportedDraft[], at: number, newId: () => string): Promise<Map<number, string>>;

  /** The company's presets, last saved first. */
  presets(companyId: number): Promise<StoredPreset[]>;
  /** Saves under the name; the company's preset of that name is replaced, keeping its id. */
  savePreset(companyId: number, preset: { name: string; settings: UploadSettings; headers: ImportPreset['headers']; at: number }): Promise<StoredPreset>;
  /** Whether there was such a preset to remove. */
  deletePreset(companyId: number, id: number): Promise<boolean>;
}
