import { create } from 'zustand';
import type { z } from 'zod';
import type { ImportField, ImportPreset, importDryRunSchema, importPreviewSchema } from '../../shared/contract/import';
import type { ErrorBody } from '../../shared/errors';
import type { Tariff } from '../../shared/schemas/lists';
import type { ImportStatus, UploadResultItem, UploadSettingsInput } from '../../shared/schemas/upload';
import { compact, isFailed, matchingPreset, toBase64 } from '../pages/import/import-logic';
import { getTransport } from '../transport/current';
import { useLocaleStore } from '../i18n/locale-store';

export type ImportPreview = z.output<typeof importPreviewSchema>;
export type ImportDryRun = z.output<typeof importDryRunSchema>;
export type ImportStep = 'file' | 'preview' | 'columns' | 'check' | 'import';
export const importSteps: readonly ImportStep[] = ['file', 'preview', 'columns', 'check', 'import'];

export interface WizardSettings {
  providerKey: string;
  dateFormat: string;
  timeFormat: string;
  nameFormat: boolean;
  itemsNewRow: boolean;
  rowStart: number;
  rowEnd: number | undefined;
  columnMap: Record<string, string>;
  defaultData: Record<string, string>;
}

export interface RunState {
  importId: number;
  status: ImportStatus;
  done: number;
  total: number;
  created: number;
  failed: number;
  items: UploadResultItem[];
  error: ErrorBody | null;
  canceling: boolean;
  target: 'orders' | 'drafts';
}

/** A problem with the chosen file: the core's error body, or one found before sending it. */
export type FileRefusal = { error: ErrorBody } | { local: 'tooLarge' | 'empty' | 'readFailed'; size?: number; limit?: number };

interface ImportState {
  step: ImportStep;
  fields: ImportField[];
  presets: ImportPreset[];
  /** Shop platforms with a ready mapping of their export. */
  platforms: { id: string; name: string }[];
  /** The platform whose mapping is in use (found from the titles or chosen). */
  platform: string | undefined;
  /** The delivery service's tariffs, for choosing one by name. */
  tariffs: Tariff[];
  /** The default sender profile's name (null: the company has none). */
  senderProfile: string | null | undefined;
  reading: string | undefined;
  refusal: FileRefusal | undefined;
  preview: ImportPreview | undefined;
  settings: WizardSettings;
  appliedPreset: string | undefined;
  dryRun: ImportDryRun | undefined;
  checking: boolean;
  checkError: ErrorBody | undefined;
  target: 'orders' | 'drafts';
  run: RunState | undefined;
  /** Re-importing the failed rows: the client numbers the last import created (they come back as duplicates). */
  createdBefore: ReadonlySet<string> | undefined;
  /** Loads the field table and the saved mappings (once). */
  init: () => Promise<void>;
  /** The tariffs of the chosen delivery service. */
  loadTariffs: () => Promise<void>;
  /** Maps the file as the platform's export does (undefined: as guessed from the titles). */
  applyPlatform: (platform: string | undefined) => Promise<void>;
  go: (step: ImportStep) => void;
  openFile: (file: File, maxBytes: number) => Promise<void>;
  update: (patch: Partial<WizardSettings>) => void;
  setColumn: (key: string, column: string) => void;
  setDefault: (key: string, value: string) => void;
  applyPreset: (preset: ImportPreset) => void;
  savePreset: (name: string) => Promise<{ ok: true; preset: ImportPreset } | { ok: false; error: ErrorBody }>;
  deletePreset: (id: number) => Promise<void>;
  check: () => Promise<void>;
  setTarget: (target: 'orders' | 'drafts') => void;
  start: () => Promise<void>;
  progress: (event: { importId: number; status: ImportStatus; done: number; total: number }) => void;
  cancel: () => Promise<void>;
  refreshResults: () => Promise<void>;
  errorsFile: () => Promise<{ ok: true; fileName: string; base64: string | null } | { ok: false; error: ErrorBody }>;
  reimportFailed: () => void;
  reset: () => void;
}

const blankSettings = (): WizardSettings => ({
  providerKey: '',
  dateFormat: 'd.m.Y',
  timeFormat: 'H:i',
  nameFormat: false,
  itemsNewRow: true,
  rowStart: 2,
  rowEnd: undefined,
  columnMap: {},
  defaultData: {},
});

/** The wizard's settings as import.dryRun / import.run take them (POST /orders/upload's settings). */
export function uploadSettings(s: WizardSettings): UploadSettingsInput {
  return {
    providerKey: s.providerKey,
    columnSettings: { dateFormat: s.dateFormat, timeFormat: s.timeFormat, nameFormat: s.nameFormat, itemsNewRow: s.itemsNewRow, rowStart: s.rowStart, ...(s.rowEnd ? { rowEnd: s.rowEnd } : {}) },
    columnMap: compact(s.columnMap),
    defaultData: compact(s.defaultData),
  };
}

function fromUploadSettings(u: ImportPreset['settings'], base: WizardSettings): WizardSettings {
  return {
    ...base,
    providerKey: u.providerKey,
    dateFormat: u.columnSettings.dateFormat ?? base.dateFormat,
    timeFormat: u.columnSettings.timeFormat,
    nameFormat: u.columnSettings.nameFormat,
    itemsNewRow: u.columnSettings.itemsNewRow,
    columnMap: { ...u.columnMap },
    defaultData: { ...(u.defaultData ?? {}) },
  };
}

const finished = (status: ImportStatus) => status === 'done' || status === 'failed' || status === 'canceled';

const readBytes = (file: File) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });

let fileSeq = 0;

/** The import wizard: one file at a time from preview to results. */
/** An import.run is on its way (the run state arrives with its answer). */
let starting = false;
/** The latest import.dryRun asked; older answers are dropped. */
let checkSeq = 0;

export const useImportStore = create<ImportState>((set, get) => ({
  step: 'file',
  fields: [],
  presets: [],
  platforms: [],
  platform: undefined,
  tariffs: [],
  senderProfile: undefined,
  reading: undefined,
  refusal: undefined,
  preview: undefined,
  settings: blankSettings(),
  appliedPreset: undefined,
  dryRun: undefined,
  checking: false,
  checkError: undefined,
  target: 'orders',
  run: undefined,
  createdBefore: undefined,

  init: async () => {
    const transport = getTransport();
    // The fields depend on the sender profile (its fields are then filled from it): asked every time.
    const [fields, presets, platforms, profiles] = await Promise.all([
      transport.invoke('import.fields', {}),
      transport.invoke('import.presets.list', {}),
      get().platforms.length ? undefined : transport.invoke('import.platforms', {}),
      transport.invoke('senderProfiles.list', {}),
    ]);
    if (fields.ok) set({ fields: fields.value });
    if (presets.ok) set({ presets: presets.value });
    if (platforms?.ok) set({ platforms: platforms.value });
    if (profiles.ok) set({ senderProfile: profiles.value.find((p) => p.isDefault)?.name ?? null });
  },

  loadTariffs: async () => {
    const providerKey = get().settings.providerKey;
    if (!providerKey) return set({ tariffs: [] });
    const result = await getTransport().invoke('lists.tariffs', { providerKey });
    if (result.ok && get().settings.providerKey === providerKey) set({ tariffs: result.value });
  },

  applyPlatform: async (platform) => {
    const preview = get().preview;
    if (!preview) return;
    const result = await getTransport().invoke('import.suggestMapping', { headers: preview.headers, ...(platform ? { platform } : {}) });
    if (!result.ok) return;
    const suggested = result.value;
    set((s) => ({
      platform: suggested.platform,
      appliedPreset: undefined,
      dryRun: undefined,
      settings: {
        ...s.settings,
        nameFormat: suggested.nameFormat,
        itemsNewRow: suggested.itemsNewRow ?? s.settings.itemsNewRow,
        columnMap: { ...suggested.columnMap },
      },
    }));
  },

  go: (step) => set({ step }),

  openFile: async (file, maxBytes) => {
    const seq = ++fileSeq;
    if (file.size > maxBytes) return set({ refusal: { local: 'tooLarge', size: file.size, limit: maxBytes }, reading: undefined });
    if (file.size === 0) return set({ refusal: { local: 'empty' }, reading: undefined });
    set({ reading: file.name, refusal: undefined });
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(file);
    } catch {
      return set({ refusal: { local: 'readFailed' }, reading: undefined });
    }
    const result = await getTransport().invoke('import.preview', { file: { base64: toBase64(bytes), name: file.name.slice(0, 255) }, rows: 20 });
    if (seq !== fileSeq) return;
    if (!result.ok) return set({ refusal: { error: result.error }, reading: undefined });
    const preview = result.value;
    const { presets, createdBefore, settings: current } = get();
    // Re-importing after a fix keeps the settings that were used; otherwise a matching preset, else the guess.
    let settings: WizardSettings;
    let appliedPreset: string | undefined;
    const preset = createdBefore ? undefined : matchingPreset(presets, preview.headers);
    if (createdBefore) settings = current;
    else if (preset) {
      settings = { ...fromUploadSettings(preset.settings, blankSettings()), rowStart: preview.rowStart };
      appliedPreset = preset.name;
    } else {
      const { suggested } = preview;
      settings = {
        ...blankSettings(),
        providerKey: current.providerKey,
        rowStart: preview.rowStart,
        nameFormat: suggested.nameFormat,
        itemsNewRow: suggested.itemsNewRow ?? true,
        columnMap: { ...suggested.columnMap },
      };
    }
    set({ preview, settings, appliedPreset, platform: preset || createdBefore ? get().platform : preview.suggested.platform, reading: undefined, refusal: undefined, dryRun: undefined, checkError: undefined, run: undefined, step: 'preview' });
  },

  update: (patch) =>
    set((s) => {
      const settings = { ...s.settings, ...patch };
      // A tariff belongs to its service: another service starts without one.
      if (patch.providerKey !== undefined && patch.providerKey !== s.settings.providerKey && settings.defaultData['order.tariffId']) {
        const { 'order.tariffId': _tariff, ...rest } = settings.defaultData;
        settings.defaultData = rest;
      }
      // Names in one column again: a name mapped to its parts keeps its first column.
      if (patch.nameFormat === false) {
        for (const key of ['recipient.contactName', 'sender.contactName']) if (settings.columnMap[key]) settings.columnMap = { ...settings.columnMap, [key]: settings.columnMap[key].split(',')[0] };
      }
      return { settings, dryRun: undefined };
    }),
  setColumn: (key, column) => set((s) => ({ settings: { ...s.settings, columnMap: { ...s.settings.columnMap, [key]: column } }, dryRun: undefined })),
  setDefault: (key, value) => set((s) => ({ settings: { ...s.settings, defaultData: { ...s.settings.defaultData, [key]: value } }, dryRun: undefined })),

  applyPreset: (preset) => set((s) => ({ settings: { ...fromUploadSettings(preset.settings, s.settings), rowStart: s.settings.rowStart }, appliedPreset: preset.name, dryRun: undefined })),

  savePreset: async (name) => {
    const { settings, preview } = get();
    const used = new Set(Object.values(compact(settings.columnMap)).flatMap((v) => v.split(',')));
    const headers = (preview?.headers ?? []).filter((h) => used.has(h.column));
    const result = await getTransport().invoke('import.presets.save', { name, settings: uploadSettings(settings), headers });
    if (!result.ok) return result;
    set((s) => ({ presets: [result.value, ...s.presets.filter((p) => p.id !== result.value.id)], appliedPreset: result.value.name }));
    return { ok: true, preset: result.value };
  },

  deletePreset: async (id) => {
    const result = await getTransport().invoke('import.presets.delete', { id });
    if (result.ok || result.error.code === '040016') set((s) => ({ presets: s.presets.filter((p) => p.id !== id) }));
  },

  check: async () => {
    const { preview, settings } = get();
    if (!preview) return;
    const seq = ++checkSeq;
    set({ checking: true, checkError: undefined, dryRun: undefined, step: 'check' });
    const result = await getTransport().invoke('import.dryRun', { importId: preview.importId, settings: uploadSettings(settings) });
    if (seq !== checkSeq) return; // a newer check owns the answer
    // The mapping changed while the check ran: this answer is about settings no longer on screen.
    if (get().settings !== settings || get().preview !== preview) return set({ checking: false });
    if (result.ok) set({ checking: false, dryRun: result.value });
    else set({ checking: false, checkError: result.error });
  },

  setTarget: (target) => set({ target }),

  start: async () => {
    const { preview, settings, target, run } = get();
    if (!preview || starting || (run && !finished(run.status))) return;
    starting = true; // a second click before the answer must not start a second run
    const result = await getTransport()
      .invoke('import.run', { importId: preview.importId, settings: uploadSettings(settings), errorsToFile: true, target, language: useLocaleStore.getState().language })
      .finally(() => (starting = false));
    if (!result.ok) return set({ checkError: result.error });
    const s = result.value;
    set({
      step: 'import',
      run: { importId: s.uploadId, status: s.status, done: 0, total: 0, created: 0, failed: 0, items: [], error: null, canceling: false, target },
    });
    // The run may have ended before the events were listened to (a tiny file): ask once.
    void get().refreshResults();
  },

  progress: (event) => {
    const run = get().run;
    if (!run || event.importId !== run.importId) return;
    if (!finished(event.status)) return set({ run: { ...run, status: event.status, done: event.done, total: event.total } });
    // The end is shown with its results, read together: an ended run without its rows read "создано 0".
    set({ run: { ...run, done: event.done, total: event.total } });
    void get()
      .refreshResults()
      .then(() => {
        // Not read, or read a moment before the end was stored: the event's word stands.
        const current = get().run;
        if (current?.importId === run.importId && !finished(current.status)) set({ run: { ...current, status: event.status } });
      });
  },

  cancel: async () => {
    const run = get().run;
    if (!run || finished(run.status)) return;
    set({ run: { ...run, canceling: true } });
    await getTransport().invoke('import.cancel', { importId: run.importId });
    await get().refreshResults();
  },

  refreshResults: async () => {
    const run = get().run;
    if (!run) return;
    const result = await getTransport().invoke('import.results', { importId: run.importId, limit: 5000 });
    if (!result.ok) return;
    const s = result.value;
    const current = get().run;
    if (!current || current.importId !== s.uploadId) return;
    // Progress events may be ahead of this answer; never step back.
    const ended = finished(s.status);
    set({
      run: {
        ...current,
        status: ended || !finished(current.status) ? s.status : current.status,
        done: ended ? s.done : Math.max(current.done, s.done),
        total: Math.max(current.total, s.total),
        created: s.created,
        failed: s.failed,
        items: s.resultItems,
        error: s.error,
        canceling: ended ? false : current.canceling,
      },
    });
  },

  errorsFile: async () => {
    const run = get().run;
    if (!run) return { ok: true, fileName: '', base64: null };
    const result = await getTransport().invoke('import.errorsFile', { importId: run.importId, language: useLocaleStore.getState().language });
    return result.ok ? { ok: true, ...result.value } : result;
  },

  reimportFailed: () => {
    const { run, createdBefore } = get();
    if (!run) return;
    const created = new Set(createdBefore ?? []);
    for (const item of run.items) if (!isFailed(item)) created.add(item.clientNumber);
    set({ createdBefore: created, step: 'file', preview: undefined, dryRun: undefined, run: undefined, refusal: undefined });
  },

  reset: () =>
    set({ step: 'file', platform: undefined, preview: undefined, settings: { ...blankSettings(), providerKey: get().settings.providerKey }, appliedPreset: undefined, dryRun: undefined, run: undefined, refusal: undefined, createdBefore: undefined, checkError: undefined, reading: undefined }),
}));
