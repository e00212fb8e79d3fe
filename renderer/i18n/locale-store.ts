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
  };
});
