import { create } from 'zustand';
import type { ErrorBody } from '../../../shared/errors';
import type { DraftSubmitResult, DraftSummary } from '../../../shared/schemas/drafts';
import { getTransport } from '../../transport/current';

export type DraftOutcome = DraftSubmitResult['results'][number];

interface DraftsState {
  rows: DraftSummary[];
  total: number;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: ErrorBody | undefined;
  selected: ReadonlySet<string>;
  submitting: boolean;
  /** Why each draft's last submit was refused (this session), by draft id. */
  failures: Readonly<Record<string, ErrorBody>>;
  /** The last submit's counts, for the banner above the list. */
  lastSubmit: { created: number; failed: number; failedIds: string[] } | undefined;
  load: () => Promise<void>;
  /** Reloads when the page has been shown once (a draft was saved or submitted elsewhere). */
  invalidate: () => void;
  /** The draft was changed after its refusal: the old reasons no longer describe it. */
  clearFailure: (id: string) => void;
  toggle: (id: string) => void;
  setAll: (on: boolean) => void;
  remove: (id: string) => Promise<Result>;
  submit: (ids: readonly string[]) => Promise<Result>;
}

type Result = { ok: true } | { ok: false; error: ErrorBody };

/**
 * Why drafts were refused, kept in the window's storage so the list still shows it after a restart
 * (the core keeps a refused draft as it was, without the reasons).
 */
const failuresKey = 'shipdesk.drafts.failures';

function readFailures(): Record<string, ErrorBody> {
  try {
    const parsed = JSON.parse(globalThis.localStorage?.getItem(failuresKey) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, ErrorBody>) : {};
  } catch {
    return {};
  }
}

function writeFailures(failures: Readonly<Record<string, ErrorBody>>) {
  try {
    globalThis.localStorage?.setItem(failuresKey, JSON.stringify(failures));
  } catch {
    // Storage full or disabled: the reasons stay for this session only.
  }
}

/**
 * The last submit's summary as the drafts stand now: a failed draft since sent from the form or deleted no
 * longer counts as "not created", and once none is left the summary has said all it had to.
 */
function stillFailing(last: DraftsState['lastSubmit'], ids: ReadonlySet<string>): DraftsState['lastSubmit'] {
  if (!last || last.failedIds.length === 0) return last;
  const failedIds = last.failedIds.filter((id) => ids.has(id));
  return failedIds.length === 0 ? undefined : { ...last, failed: failedIds.length, failedIds };
}

let requestSeq = 0;
let invalidateTimer: ReturnType<typeof setTimeout> | undefined;

/** The drafts page: saved order forms, last saved first, and what their submits returned. */
export const useDraftsStore = create<DraftsState>((set, get) => ({
  rows: [],
  total: 0,
  status: 'idle',
  error: undefined,
  selected: new Set(),
  submitting: false,
  failures: readFailures(),
  lastSubmit: undefined,

  load: async () => {
    const seq = ++requestSeq;
    set((s) => ({ status: s.status === 'ready' ? 'ready' : 'loading' }));
    const result = await getTransport().invoke('drafts.list', { limit: 1000, offset: 0 });
    if (seq !== requestSeq) return;
    if (!result.ok) {
      set({ status: 'error', error: result.error });
      return;
    }
    const ids = new Set(result.value.rows.map((r) => r.id));
    // Reasons of drafts that are gone are dropped, but only when the whole list was read.
    const complete = result.value.rows.length === result.value.total;
    set((s) => ({
      rows: result.value.rows,
      total: result.value.total,
      status: 'ready',
      error: undefined,
      selected: new Set([...s.selected].filter((id) => ids.has(id))),
      failures: complete ? Object.fromEntries(Object.entries(s.failures).filter(([id]) => ids.has(id))) : s.failures,
      lastSubmit: complete ? stillFailing(s.lastSubmit, ids) : s.lastSubmit,
    }));
    writeFailures(get().failures);
  },

  invalidate: () => {
    if (get().status === 'idle') return;
    clearTimeout(invalidateTimer);
    invalidateTimer = setTimeout(() => void get().load(), 150);
  },

  clearFailure: (id) => {
    if (!(id in get().failures)) return;
    const { [id]: _gone, ...rest } = get().failures;
    set({ failures: rest });
    writeFailures(rest);
  },

  toggle: (id) =>
    set((s) => {
      const selected = new Set(s.selected);
      if (!selected.delete(id)) selected.add(id);
      return { selected };
    }),

  setAll: (on) => set((s) => ({ selected: on ? new Set(s.rows.map((r) => r.id)) : new Set() })),

  remove: async (id) => {
    const result = await getTransport().invoke('drafts.delete', { id });
    if (!result.ok && result.error.code !== '040016') return result;
    await get().load();
    return { ok: true };
  },

  submit: async (ids) => {
    if (get().submitting || ids.length === 0) return { ok: true };
    set({ submitting: true });
    const result = await getTransport().invoke('drafts.submit', { ids: [...ids] });
    if (!result.ok) {
      set({ submitting: false });
      return result;
    }
    const failures = { ...get().failures };
    for (const outcome of result.value.results) {
      if (outcome.ok) delete failures[outcome.id];
      else failures[outcome.id] = outcome.error;
    }
    const failedIds = result.value.results.filter((o) => !o.ok).map((o) => o.id);
    set({ submitting: false, failures, lastSubmit: { created: result.value.created, failed: result.value.failed, failedIds } });
    writeFailures(failures);
    await get().load();
    return { ok: true };
  },
}));
