import type { OrdersNoticeEvent } from '../../../shared/contract/bulk';
import { useToastStore, type ToastTone } from '../../stores/toast-store';
import type { AppEvent } from '../../transport/types';

type NoticeTitle = 'activity.notice.delivered' | 'activity.notice.returned' | 'activity.notice.problem';

const titles: Record<OrdersNoticeEvent['kind'], { key: NoticeTitle; tone: ToastTone }> = {
  delivered: { key: 'activity.notice.delivered', tone: 'success' },
  returned: { key: 'activity.notice.returned', tone: 'info' },
  problem: { key: 'activity.notice.problem', tone: 'error' },
};

const listed = 5;

/** An orders.notice event (a refresh found orders delivered, returned or in trouble) as a notification. */
export function showOrdersNotice(event: AppEvent): void {
  const kind = event.kind as OrdersNoticeEvent['kind'];
  const title = titles[kind];
  const numbers = Array.isArray(event.clientNumbers) ? event.clientNumbers.map(String) : [];
  if (!title || numbers.length === 0) return;
  const list = numbers.slice(0, listed).join(', ');
  const more = numbers.length - listed;
  useToastStore.getState().push(
    {
      tone: title.tone,
      title: (t) => t(title.key, { count: numbers.length }),
      message: (t) => (more > 0 ? t('activity.notice.more', { list, more }) : list),
    },
    12_000,
  );
}
