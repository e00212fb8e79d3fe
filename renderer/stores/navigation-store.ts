import { create } from 'zustand';

/** Pages of the app, in navbar order. */
export type PageKey = 'today' | 'orders' | 'dispatch' | 'drafts' | 'import' | 'settings';

/** Where in the settings to land: a section (its tab's key) and, in «Службы доставки» (connections), the connection in question. */
export interface SettingsFocus {
  tab: string;
  /** The connection by id, else the service's default one (an order without a chosen connection goes by it). */
  connection?: { id?: number | null; providerKey: string };
}

interface NavigationState {
  page: PageKey;
  /** false until the first screen is chosen (see useFirstScreen): the main area waits rather than flashes. */
  landed: boolean;
  /** Set by `openSettings` for the settings page to show; cleared on leaving it. */
  settingsFocus: SettingsFocus | null;
  go: (page: PageKey) => void;
  /** The settings, at a section (and a connection there). */
  openSettings: (focus: SettingsFocus) => void;
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
  settingsFocus: null,
  go: (page) => set({ page, landed: true, settingsFocus: page === 'settings' ? get().settingsFocus : null }),
  openSettings: (focus) => set({ page: 'settings', landed: true, settingsFocus: focus }),
  land: (page) => {
    if (!get().landed) set({ page, landed: true });
  },
}));
