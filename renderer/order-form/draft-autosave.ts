import { useDraftsStore } from '../pages/drafts/drafts-store';
import { useOrderFormStore } from '../stores/order-form-store';
import { saidByBanner } from '../stores/storage-store';
import { getTransport } from '../transport/current';
import { draftDataOf, newDraftId } from './draft-data';

/** How long typing may pause before the draft is written to the database. */
export const draftSaveDelayMs = 500;
const retryDelayMs = 3000;

/**
 * Keys of the window's own storage. `pending` is the unsaved form, written synchronously on every edit:
 * the database write is asynchronous, and a window closed (or a power cut) inside the 500 ms pause
 * would otherwise lose the last keystrokes; the next start writes it to the database. `current` names
 * the draft the form was on, so the next start can offer to continue it.
 */
const pendingKey = 'shipdesk.draft.pending';
const currentKey = 'shipdesk.draft.current';

/** `unsaved`: the last save failed because ShipDesk could not write it (050007: a full disk, the database file gone), not because it could not be reached. */
export type DraftSaveState = { status: 'idle' | 'saving' | 'saved' | 'error'; savedAt?: string; unsaved?: boolean };

type PendingDraft = { id: string; data: Record<string, unknown> };

let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<void> | undefined;
let savedVersion = -1;
const saveStateListeners = new Set<(state: DraftSaveState) => void>();
let saveState: DraftSaveState = { status: 'idle' };

function setSaveState(next: DraftSaveState) {
  saveState = next;
  for (const listener of saveStateListeners) listener(next);
}

/** The autosave's state for the form's footer ("Saved 12:04"). */
export function subscribeDraftSaveState(listener: (state: DraftSaveState) => void): () => void {
  saveStateListeners.add(listener);
  listener(saveState);
  return () => saveStateListeners.delete(listener);
}
export const draftSaveState = () => saveState;

const storage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
};

function readPending(): PendingDraft | undefined {
  try {
    const raw = storage()?.getItem(pendingKey);
    const parsed = raw ? (JSON.parse(raw) as PendingDraft) : undefined;
    return parsed && typeof parsed.id === 'string' && parsed.data && typeof parsed.data === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The draft the form was on when the window closed, if any. */
export const rememberedDraftId = (): string | null => storage()?.getItem(currentKey) ?? null;
export const forgetRememberedDraft = () => storage()?.removeItem(currentKey);

/** Writes the form to the database now if it changed since the last save; saves in flight run one at a time. */
async function saveNow(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  while (inFlight) await inFlight;
  const { dirty, draftId, version, values, extraTypes } = useOrderFormStore.getState();
  if (!dirty || !draftId || version === savedVersion) return;
  const data = draftDataOf(values, extraTypes);
  setSaveState({ status: 'saving', savedAt: saveState.savedAt });
  inFlight = (async () => {
    const result = await getTransport().invoke('drafts.save', { id: draftId, data });
    if (result.ok) {
      savedVersion = version;
      setSaveState({ status: 'saved', savedAt: result.value.savedAt });
      if (readPending()?.id === draftId && useOrderFormStore.getState().version === version) storage()?.removeItem(pendingKey);
      useDraftsStore.getState().clearFailure(draftId);
      useDraftsStore.getState().invalidate();
    } else {
      setSaveState({ status: 'error', savedAt: saveState.savedAt, unsaved: saidByBanner(result.error) });
      // The copy in the window's storage keeps the typing safe meanwhile; try again shortly.
      timer ??= setTimeout(() => void saveNow(), retryDelayMs);
    }
  })();
  try {
    await inFlight;
  } finally {
    inFlight = undefined;
  }
}

/** Deletes the draft of a submitted form, after any save of it still in flight. */
async function discard(id: string): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  while (inFlight) await inFlight;
  if (readPending()?.id === id) storage()?.removeItem(pendingKey);
  if (rememberedDraftId() === id) forgetRememberedDraft();
  setSaveState({ status: 'idle' });
  const result = await getTransport().invoke('drafts.delete', { id });
  // 040016: it was never saved, or the drafts page removed it already; either way it is gone.
  if (!result.ok && result.error.code !== '040016') {
    timer = setTimeout(() => void discard(id), retryDelayMs);
    return;
  }
  useDraftsStore.getState().invalidate();
}

let recovery: Promise<void> | undefined;

/** The unsaved form a previous window left behind, written to the database (once per window). */
export const recoverPendingDraft = (): Promise<void> => (recovery ??= recoverPending());

/** Writes an unsaved form left in the window's storage (closed or cut off inside the pause) to the database. */
async function recoverPending(): Promise<void> {
  const pending = readPending();
  if (!pending) return;
  const result = await getTransport().invoke('drafts.save', { id: pending.id, data: pending.data });
  if (result.ok && readPending()?.id === pending.id) storage()?.removeItem(pendingKey);
}

/**
 * Saves the order form as a draft while the user types: every edit goes to the window's storage at
 * once and to the database after a 500 ms pause, on closing the form, when the window loses focus or
 * is hidden, and before it unloads. Returns the function that stops it.
 */
export function startDraftAutosave(): () => void {
  const recovered = recoverPendingDraft();
  let assigningId = false;
  const unsubscribe = useOrderFormStore.subscribe((state, previous) => {
    // Changes to an order already sent are not a new order's draft: submitting such a draft would create a second order.
    if (assigningId || state.editingOrderId) return;
    if (state.version === previous.version || !state.dirty) {
      if (state.draftId !== previous.draftId) {
        if (state.draftId) storage()?.setItem(currentKey, state.draftId);
        savedVersion = state.draftId ? state.version : -1;
        setSaveState({ status: 'idle' });
      }
      return;
    }
    let id = state.draftId;
    if (!id) {
      // The first edit of a fresh form names its draft.
      id = newDraftId();
      assigningId = true;
      useOrderFormStore.setState({ draftId: id });
      assigningId = false;
    }
    storage()?.setItem(currentKey, id);
    try {
      storage()?.setItem(pendingKey, JSON.stringify({ id, data: draftDataOf(state.values, state.extraTypes) }));
    } catch {
      // Storage full or disabled: the database save below still runs.
    }
    clearTimeout(timer);
    timer = setTimeout(() => void recovered.then(saveNow), draftSaveDelayMs);
  });
  const flush = () => recovered.then(saveNow);
  const onHidden = () => {
    if (document.visibilityState === 'hidden') void flush();
  };
  window.addEventListener('blur', flush);
  window.addEventListener('beforeunload', flush);
  document.addEventListener('visibilitychange', onHidden);
  useOrderFormStore.getState().installDraftHooks({ flush, discard });
  return () => {
    unsubscribe();
    // Nothing may fire once the form is gone (the window's beforeunload has already saved what was typed).
    clearTimeout(timer);
    timer = undefined;
    window.removeEventListener('blur', flush);
    window.removeEventListener('beforeunload', flush);
    document.removeEventListener('visibilitychange', onHidden);
    useOrderFormStore.getState().installDraftHooks(undefined);
  };
}
