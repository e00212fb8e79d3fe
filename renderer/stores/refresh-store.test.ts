import type { Result } from '../../shared/result';
import { createTranslate } from '../i18n/translate';
import { setTransport } from '../transport/current';
import type { Transport } from '../transport/types';
import { useRefreshStore } from './refresh-store';
import { useToastStore } from './toast-store';

/** A window transport whose answers the test gives; it records what the store asked. */
function scriptedTransport(answers: Record<string, () => Promise<Result<unknown>>>) {
  const asked: string[] = [];
  const transport = {
    kind: 'http',
    invoke: (name: string) => {
      asked.push(name);
      return answers[name]?.() ?? Promise.resolve({ ok: false, error: { code: '040016', message: 'Not found' } });
    },
    onEvent: () => () => {},
    onConnectionChange: () => () => {},
    dispose: () => {},
  } as unknown as Transport;
  setTransport(transport);
  return asked;
}

const lastRefresh = { at: '2026-03-01T10:00:00+03:00', trigger: 'manual', result: { checked: 3, changed: 2, statuses: 4, failed: 0 }, error: null, nextAt: null, running: false };

describe('the status refresh in the header', () => {
  const en = createTranslate('en');
  beforeEach(() => {
    useRefreshStore.setState({ last: undefined, progress: undefined, requested: false, result: undefined, error: undefined });
    useToastStore.setState({ toasts: [] });
  });
  afterAll(() => setTransport(undefined));

  it('follows the progress of a run and, when it ends, asks when statuses were last refreshed', async () => {
    const asked = scriptedTransport({ 'statuses.lastRefresh': async () => ({ ok: true, value: lastRefresh }) });
    useRefreshStore.getState().progressed(0, 3);
    useRefreshStore.getState().progressed(2, 3);
    expect(useRefreshStore.getState().progress).toEqual({ done: 2, total: 3 });
    useRefreshStore.getState().progressed(3, 3);
    expect(useRefreshStore.getState().progress).toBeUndefined();
    await vi.waitFor(() => expect(useRefreshStore.getState().last).toEqual(lastRefresh));
    expect(asked).toEqual(['statuses.lastRefresh']);
  });

  it('"refresh now" pressed twice while it runs asks the core once, and shows what it found', async () => {
    let finish: (r: Result<unknown>) => void = () => {};
    const asked = scriptedTransport({
      'statuses.refreshNow': () => new Promise((resolve) => (finish = resolve)),
      'statuses.lastRefresh': async () => ({ ok: true, value: lastRefresh }),
    });
    const first = useRefreshStore.getState().refreshNow();
    const second = useRefreshStore.getState().refreshNow();
    expect(useRefreshStore.getState().requested).toBe(true);
    finish({ ok: true, value: { checked: 3, changed: 2, statuses: 4, failed: 0 } });
    await Promise.all([first, second]);
    expect(asked.filter((n) => n === 'statuses.refreshNow')).toHaveLength(1);
    expect(useRefreshStore.getState()).toMatchObject({ requested: false, result: { checked: 3, changed: 2 }, last: lastRefresh });
  });

  it('a refresh that fails says so in a notification in the user\'s language', async () => {
    scriptedTransport({
      'statuses.refreshNow': async () => ({ ok: false, error: { code: 'client.offline', message: 'fetch failed' } }),
      'statuses.lastRefresh': async () => ({ ok: true, value: lastRefresh }),
    });
    await useRefreshStore.getState().refreshNow();
    const [toast] = useToastStore.getState().toasts;
    expect([toast.tone, toast.title(en), toast.message!(en)]).toEqual(['error', 'Statuses were not refreshed', 'No connection to ShipDesk']);
    expect(useRefreshStore.getState().error).toMatchObject({ code: 'client.offline' });
  });
});
