import { create } from 'zustand';
import type { CommandInput, CommandName, CommandOutput } from '../../shared/contract';
import type { Connection, ConnectionKindInfo, ConnectionTestResult } from '../../shared/contract/connections';
import type { BackupFile, SettingsEnvironment } from '../../shared/contract/settings';
import { uploadInParts } from '../../shared/backup/upload-in-parts';
import type { ErrorBody } from '../../shared/errors';
import type { Result } from '../../shared/result';
import type { Settings } from '../../shared/schemas/settings';
import { useLocaleStore } from '../i18n/locale-store';
import { getTransport } from '../transport/current';
import { useSessionStore } from './session-store';

/** A piece of a file as base64, read by the browser itself (a data: URL), never through a string of bytes. */
const base64Of = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

type Outcome<T = undefined> = { ok: true; value: T } | { ok: false; error: ErrorBody };
type PreferenceLanguage = Settings['preferences']['language'];

interface SettingsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: ErrorBody | undefined;
  settings: Settings | undefined;
  environment: SettingsEnvironment | undefined;
  connections: Connection[];
  /** The kinds of service the shop can connect and the settings each needs (the core's carrier table). */
  kinds: ConnectionKindInfo[];
  backups: BackupFile[];
  /** The last "test connection" answer per connection id (kept while the window is open). */
  tests: Record<number, ConnectionTestResult>;
  testing: Record<number, boolean>;

  load: () => Promise<void>;
  saveCompany: (company: CommandInput<'settings.update'>['company']) => Promise<Outcome>;
  savePreferences: (preferences: NonNullable<CommandInput<'settings.update'>['preferences']>) => Promise<Outcome>;
  /** Applies and stores the language ('system' follows the computer's language). */
  setLanguage: (language: PreferenceLanguage) => Promise<Outcome>;
  regenerateToken: () => Promise<Outcome>;
  createProfile: (input: CommandInput<'senderProfiles.create'>) => Promise<Outcome>;
  updateProfile: (input: CommandInput<'senderProfiles.update'>) => Promise<Outcome>;
  deleteProfile: (id: number) => Promise<Outcome>;
  createConnection: (input: CommandInput<'connections.create'>) => Promise<Outcome<Connection>>;
  updateConnection: (input: CommandInput<'connections.update'>) => Promise<Outcome<Connection>>;
  deleteConnection: (id: number) => Promise<Outcome>;
  testConnection: (id: number) => Promise<void>;
  /** Re-reads the connections without disturbing the page (another window or program changed them). */
  refreshConnections: () => Promise<void>;
  backupNow: () => Promise<Outcome<BackupFile>>;
  restore: (file: string) => Promise<Outcome>;
  /** Sends a database file the owner picked, in parts (`progress` hears the bytes sent), and lists it. */
  uploadBackup: (file: File, progress: (sent: number) => void) => Promise<Outcome<BackupFile>>;
  cancelRestore: () => Promise<Outcome>;
}

const call = <N extends CommandName>(name: N, input: CommandInput<N>): Promise<Result<CommandOutput<N>>> => getTransport().invoke(name, input);

const done = <T>(value: T): Outcome<T> => ({ ok: true, value });

/** True while this store itself changes the window's language (so the change is not written back). */
let applyingLanguage = false;

function applyLanguage(language: PreferenceLanguage): void {
  const locale = useLocaleStore.getState();
  applyingLanguage = true;
  try {
    if (language === 'system') locale.followSystem();
    else if (locale.language !== language) locale.setLanguage(language);
  } finally {
    applyingLanguage = false;
  }
}

/**
 * The settings page's data: settings, where secrets and the local API live, connections with their last
 * check, backups. Every action answers an Outcome the page turns into feedback; the state follows the core.
 */
export const useSettingsStore = create<SettingsState>((set, get) => {
  const withSettings = (settings: Settings) => set({ settings });

  async function reloadProfiles(): Promise<void> {
    const result = await call('settings.get', {});
    if (result.ok) withSettings(result.value);
  }

  async function reloadConnections(): Promise<void> {
    const result = await call('connections.list', {});
    if (result.ok) set({ connections: result.value });
  }

  async function reloadBackups(): Promise<void> {
    const result = await call('backup.list', {});
    if (result.ok) set({ backups: result.value });
  }

  async function update(input: CommandInput<'settings.update'>): Promise<Outcome> {
    const result = await call('settings.update', input);
    if (!result.ok) return result;
    withSettings(result.value);
    return done(undefined);
  }

  return {
    status: 'idle',
    error: undefined,
    settings: undefined,
    environment: undefined,
    connections: [],
    kinds: [],
    backups: [],
    tests: {},
    testing: {},

    load: async () => {
      if (get().status === 'loading') return;
      set({ status: 'loading', error: undefined });
      const [settings, environment, connections, backups, kinds] = await Promise.all([
        call('settings.get', {}),
        call('settings.environment', {}),
        call('connections.list', {}),
        call('backup.list', {}),
        call('connections.kinds', {}),
      ]);
      const failed = [settings, connections, backups].find((r) => !r.ok);
      if (failed && !failed.ok) {
        set({ status: 'error', error: failed.error });
        return;
      }
      if (!settings.ok || !connections.ok || !backups.ok) return;
      set({
        status: 'ready',
        settings: settings.value,
        // An older core without the command: the page then says less, but works.
        environment: environment.ok ? environment.value : undefined,
        connections: connections.value,
        // An older core without the table: CDEK and the upstream, whose forms the window knows, are still offered.
        kinds: kinds.ok ? kinds.value : [],
        backups: backups.value,
      });
      // Another window or program may have changed the language; the stored choice wins.
      if (settings.value.preferences.language !== 'system') applyLanguage(settings.value.preferences.language);
    },

    saveCompany: (company) => update({ company }),
    savePreferences: (preferences) => update({ preferences }),

    setLanguage: async (language) => {
      applyLanguage(language);
      return update({ preferences: { language } });
    },

    regenerateToken: async () => {
      let outcome: Outcome = { ok: false, error: { code: 'client.badResponse', message: 'no answer' } };
      const regenerate = async () => {
        const result = await call('settings.regenerateToken', {});
        if (!result.ok) {
          outcome = result;
          return undefined;
        }
        outcome = done(undefined);
        const { settings } = get();
        if (settings) withSettings({ ...settings, apiToken: result.value.apiToken });
        return result.value.apiToken;
      };
      // The window has a session of its own: the interface's token can change under it.
      await regenerate();
      return outcome;
    },

    createProfile: async (input) => {
      const result = await call('senderProfiles.create', input);
      if (!result.ok) return result;
      await reloadProfiles();
      return done(undefined);
    },
    updateProfile: async (input) => {
      const result = await call('senderProfiles.update', input);
      if (!result.ok) return result;
      await reloadProfiles();
      return done(undefined);
    },
    deleteProfile: async (id) => {
      const result = await call('senderProfiles.delete', { id });
      if (!result.ok) return result;
      await reloadProfiles();
      return done(undefined);
    },

    createConnection: async (input) => {
      const result = await call('connections.create', input);
      if (!result.ok) return result;
      await reloadConnections();
      return done(result.value);
    },
    updateConnection: async (input) => {
      const result = await call('connections.update', input);
      if (!result.ok) return result;
      // A changed connection is another account: its last check no longer says anything.
      const { [result.value.id]: _old, ...tests } = get().tests;
      set({ tests });
      await reloadConnections();
      return done(result.value);
    },
    deleteConnection: async (id) => {
      const result = await call('connections.delete', { id });
      if (!result.ok) return result;
      await reloadConnections();
      return done(undefined);
    },
    testConnection: async (id) => {
      set({ testing: { ...get().testing, [id]: true } });
      const result = await call('connections.test', { id });
      // A refusal or a transport failure is a failed check too, with its own message (and key: said in the user's language).
      const answer: ConnectionTestResult = result.ok
        ? result.value
        : { ok: false, message: result.error.description ?? result.error.message, ...(result.error.key ? { key: result.error.key, ...(result.error.params ? { params: result.error.params } : {}) } : {}), checkedAt: new Date().toISOString(), tokenExpiresIn: null };
      set({ tests: { ...get().tests, [id]: answer }, testing: { ...get().testing, [id]: false } });
    },

    refreshConnections: reloadConnections,

    backupNow: async () => {
      const result = await call('backup.now', {});
      if (!result.ok) return result;
      await reloadBackups();
      return done(result.value);
    },
    uploadBackup: async (file, progress) => {
      const source = { size: file.size, read: (start: number, end: number) => base64Of(file.slice(start, end)) };
      const result = await uploadInParts(source, file.name, (part) => call('backup.upload', part), progress);
      if (result.ok) await reloadBackups();
      return result;
    },
    restore: async (file) => {
      const result = await call('backup.restore', { id: file });
      if (!result.ok) return result;
      const { settings } = get();
      if (settings) withSettings({ ...settings, pendingRestore: result.value.staged });
      return done(undefined);
    },
    cancelRestore: async () => {
      const result = await call('backup.cancelRestore', {});
      if (!result.ok) return result;
      const { settings } = get();
      if (settings) withSettings({ ...settings, pendingRestore: null });
      return done(undefined);
    },
  };
});

// The header's language switch is the same setting: a choice made there is stored as the preference too.
useLocaleStore.subscribe((state, previous) => {
  if (applyingLanguage || state.language === previous.language) return;
  // The stored preference is the owner's; a packer's switch changes this window only.
  const { access, identity } = useSessionStore.getState();
  if (access !== 'ready' || identity?.role !== 'owner') return;
  const { settings } = useSettingsStore.getState();
  if (settings?.preferences.language === state.language) return;
  void getTransport()
    .invoke('settings.update', { preferences: { language: state.language } })
    .then((result) => {
      if (result.ok) useSettingsStore.setState({ settings: result.value });
    });
});
