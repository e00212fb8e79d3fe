import { create } from 'zustand';

/** Pages of the app, in navbar order. */
export type PageKey = 'orders' | 'dispatch' | 'drafts' | 'import' | 'settings';

interface NavigationState {
  page: PageKey;
  go: (page: PageKey) => void;
}

/**
 * Which page is shown. State, not URL routing: the window has no address bar in Electron, and in
 * browser mode the fragment carries the access token.
 */
export const useNavigationStore = create<NavigationState>((set) => ({
  page: 'orders',
  go: (page) => set({ page }),
}));
