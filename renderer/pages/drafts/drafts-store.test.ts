import type { Result } from '../../../shared/result';
import { setTransport } from '../../transport/current';
import type { Transport } from '../../transport/types';
import { useDraftsStore } from './drafts-store';

/** A transport whose drafts list is what the test says the core holds now. */
function drafts(held: () => string[]) {
  setTransport({
    kind: 'http',
    invoke: (name: string): Promise<Result<unknown>> => {
      if (name === 'drafts.list') return Promise.resolve({ ok: true, value: { rows: held().map((id) => ({ id })), total: held().length } });
      if (name === 'drafts.submit')
        return Promise.resolve({
          ok: true,
          value: { created: 2, failed: 1, results: [{ id: 'a', ok: true }, { id: 'b', ok: true }, { id: 'c', ok: false, error: { code: '040002', message: 'Validation error' } }] },
        });
      return Promise.resolve({ ok: false, error: { code: '040016', message: 'Not found' } });
    },
    onEvent: () => () => {},
    onConnectionChange: () => () => {},
    dispose: () => {},
  } as unknown as Transport);
}

describe('the drafts page\'s summary of the last submit', () => {
  afterAll(() => setTransport(undefined));

  it('stops saying "not created" once the failed draft has been sent from the form or deleted', async () => {
    let held = ['a', 'b', 'c'];
    drafts(() => held);
    held = ['c'];
    await useDraftsStore.getState().submit(['a', 'b', 'c']);
    expect(useDraftsStore.getState().lastSubmit).toMatchObject({ created: 2, failed: 1 });

    await useDraftsStore.getState().load(); // still there: still "not created: 1"
    expect(useDraftsStore.getState().lastSubmit).toMatchObject({ failed: 1 });

    held = []; // fixed and sent from the form
    await useDraftsStore.getState().load();
    expect(useDraftsStore.getState().lastSubmit).toBeUndefined();
  });
});
