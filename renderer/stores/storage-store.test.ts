import { ErrorCode } from '../../shared/errors';
import { said } from '../../shared/messages';
import { isDatabaseGone, noteCommandResult, useStorageStore } from './storage-store';
import { toastRefusal, useToastStore } from './toast-store';

const full = { code: ErrorCode.storageFull, message: 'Insufficient storage', description: 'The disk of the ShipDesk data folder is full' };
const { message: description, ...ref } = said('storage.databaseGone', { file: '/data/shipdesk.db' });
const gone = { code: ErrorCode.storageFull, message: 'Insufficient storage', description, ...ref };

describe('the storage state of the window', () => {
  beforeEach(() => useStorageStore.setState({ failure: null }));

  it('keeps the 050007 a command met, tells a file gone from a full disk by its key, and clears when that command goes through', () => {
    noteCommandResult('orders.create', { ok: false, error: gone });
    expect(useStorageStore.getState().failure).toEqual({ command: 'orders.create', error: gone });
    expect(isDatabaseGone(useStorageStore.getState().failure!.error)).toBe(true);
    noteCommandResult('orders.list', { ok: true, value: [] }); // another command's success: still failing
    expect(useStorageStore.getState().failure?.command).toBe('orders.create');
    noteCommandResult('orders.create', { ok: false, error: full });
    expect(isDatabaseGone(useStorageStore.getState().failure!.error)).toBe(false);
    noteCommandResult('orders.create', { ok: true, value: {} });
    expect(useStorageStore.getState().failure).toBeNull();
  });

  it('leaves a full disk or the database gone to the banner: a refusal toast is shown for any other error only', () => {
    useToastStore.setState({ toasts: [] });
    const toast = { title: () => 'Could not save' };
    toastRefusal(full, toast, 0);
    toastRefusal(gone, toast, 0);
    expect(useToastStore.getState().toasts).toEqual([]);
    toastRefusal({ code: ErrorCode.validation, message: 'Bad request' }, toast, 0);
    expect(useToastStore.getState().toasts).toMatchObject([{ tone: 'error', title: toast.title }]);
  });
});
