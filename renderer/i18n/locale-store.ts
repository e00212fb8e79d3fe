import { create } from 'zustand';
import { detectLanguage } from './translate';
import type { Language } from './types';

const storageKey = 'shipdesk.lang';

function readSaved(): string | null {
  try {
    return globalThis.localStorage?.getItem(storageKey) ?? null;
  } catch {
    return null;
  }
}

function applyToDocument(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

interface LocaleState {
  language: Language;
  setLanguage: (language: Language) => void;
  /** Forgets the explicit choice: the system's language applies (the settings' "as the system"). */
  followSystem: () => void;
}

/** The interface language: detected at start, switched from the header, remembered in localStorage. */
export const useLocaleStore = create<LocaleState>((set) => {
  const initial = detectLanguage(readSaved(), globalThis.navigator?.language);
  applyToDocument(initial);
  return {
    language: initial,
    setLanguage: (language) => {
      try {
        globalThis.localStorage?.setItem(storageKey, language);
      } catch {
        // Storage may be unavailable (private window); the choice then lasts for this session only.
      }
      applyToDocument(language);
      set({ language });
    },
    followSystem: () => {
      try {
        globalThis.localStorage?.removeItem(storageKey);
      } catch {
        // Nothing saved that could be forgotten.
      }
      const language = detectLanguage(null, globalThis.navigator?.language);
      applyToDocument(language);
      set({ language });
    },
  };
});
