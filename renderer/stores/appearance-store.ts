import { create } from 'zustand';

/** The screen a new window opens on: "Today" once the shop has orders (auto), or always one of the two. */
export const firstScreens = ['auto', 'today', 'orders'] as const;
export type FirstScreen = (typeof firstScreens)[number];

const storageKey = 'shipdesk.firstScreen';

function readSaved(): FirstScreen {
  try {
    const saved = globalThis.localStorage?.getItem(storageKey);
    return (firstScreens as readonly string[]).includes(saved ?? '') ? (saved as FirstScreen) : 'auto';
  } catch {
    return 'auto';
  }
}

interface AppearanceState {
  firstScreen: FirstScreen;
  setFirstScreen: (screen: FirstScreen) => void;
}

/** Choices of this window's look kept in localStorage (the color scheme is Mantine's own). */
export const useAppearanceStore = create<AppearanceState>((set) => ({
  firstScreen: readSaved(),
  setFirstScreen: (firstScreen) => {
    try {
      globalThis.localStorage?.setItem(storageKey, firstScreen);
    } catch {
      // Storage may be unavailable (private window): the choice lasts for this window.
    }
    set({ firstScreen });
  },
}));
