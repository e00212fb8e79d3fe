import { create } from 'zustand';

/** Pages of the app, in navbar order. */
export type PageKey = 'today' | 'orders' | 'dispatch' | 'drafts' | 'import' | 'settings';

interface NavigationState {
  page: PageKey;
  /** false until the first screen is chosen (see useFirstScreen): the main area waits rather than flashes. */
  landed: boolean;
  go: (page: PageKey) => void;
  /** The first screen, unless the user has already gone somewhere. */
  land: (page: PageKey) => void;
}

/**
 * Which page is shown. State, not URL routing: the window has no address bar in Electron, and in
 * browser mode the fragment carries the access token.
 */
export const useNavigationStore = create<NavigationState>((set, get) => ({
  page: 'orders',
  landed: false,
  go: (page) => set({ page, landed: true }),
  land: (page) => {
    if (!get().landed) set({ page, landed: true });
  },
}));
