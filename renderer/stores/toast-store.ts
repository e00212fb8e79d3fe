import { create } from 'zustand';
import type { Translate } from '../i18n/types';

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
