import { createTranslate } from '../../i18n/translate';
import { useToastStore } from '../../stores/toast-store';
import { showOrdersNotice } from './order-notices';

describe('notifications of what a status refresh found', () => {
  const en = createTranslate('en');
  const ru = createTranslate('ru');
  beforeEach(() => useToastStore.setState({ toasts: [] }));

  it('names the delivered orders, five at most and how many more', () => {
    const clientNumbers = ['A-1', 'A-2', 'A-3', 'A-4', 'A-5', 'A-6', 'A-7'];
    showOrdersNotice({ type: 'orders.notice', kind: 'delivered', orderIds: ['1', '2', '3', '4', '5', '6', '7'], clientNumbers });
    const [toast] = useToastStore.getState().toasts;
    expect(toast.tone).toBe('success');
    expect(toast.title(en)).toBe('Delivered: 7');
    expect(toast.message!(en)).toBe('A-1, A-2, A-3, A-4, A-5 and 2 more');
    expect(toast.title(ru)).toBe('Вручено заказов: 7');
  });

  it('tells returns and problems apart and ignores what it does not know', () => {
    showOrdersNotice({ type: 'orders.notice', kind: 'problem', clientNumbers: ['B-1'] });
    showOrdersNotice({ type: 'orders.notice', kind: 'returned', clientNumbers: ['B-2'] });
    showOrdersNotice({ type: 'orders.notice', kind: 'teleported', clientNumbers: ['B-3'] });
    showOrdersNotice({ type: 'orders.notice', kind: 'delivered', clientNumbers: [] });
    const toasts = useToastStore.getState().toasts;
    expect(toasts.map((t) => [t.tone, t.title(en), t.message!(en)])).toEqual([
      ['error', 'Delivery problems: 1', 'B-1'],
      ['info', 'Returned: 1', 'B-2'],
    ]);
  });
});
