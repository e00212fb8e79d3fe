import { create } from 'zustand';
import type { ErrorBody } from '../../shared/errors';
import type { Translate } from '../i18n/types';
import { saidByBanner } from './storage-store';

export type ToastTone = 'success' | 'error' | 'info';

/** Texts are functions of t() so an open toast follows a language switch. */
export interface Toast {
  id: number;
  tone: ToastTone;
  title: (t: Translate) => string;
  message?: (t: Translate) => string;
}

interface ToastState {
  toasts: Toast[];
  push: (toast: Omit<Toast, 'id'>, ttlMs?: number) => number;
  dismiss: (id: number) => void;
}

let nextId = 1;
const maxVisible = 4;

/** Short-lived notifications in the corner of the window. */
export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  push: (toast, ttlMs = 6000) => {
    const id = nextId++;
    set((s) => ({ toasts: [...s.toasts, { ...toast, id }].slice(-maxVisible) }));
    if (ttlMs > 0) setTimeout(() => get().dismiss(id), ttlMs);
    return id;
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));

/**
 * A command's refusal in the corner (tone error), unless the storage banner says it already (saidByBanner): a full
 * disk or the database gone is said once, in the banner, whichever step met it.
 */
export function toastRefusal(error: ErrorBody, toast: Omit<Toast, 'id' | 'tone'>, ttlMs?: number): void {
  if (!saidByBanner(error)) useToastStore.getState().push({ tone: 'error', ...toast }, ttlMs);
}
