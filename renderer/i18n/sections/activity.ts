import type { SectionDictionary } from '../section';

/** Background work the header shows: status refresh, its notices, stuck orders, the outbox queue. */
export const en = {
  'activity.refresh.now': 'Refresh statuses',
  'activity.refresh.nowHint': 'Ask the delivery services for new statuses of all unfinished orders now',
  'activity.refresh.running': 'Refreshing… {done} of {total}',
  'activity.refresh.starting': 'Refreshing…',
  'activity.refresh.progress': 'Status refresh progress',
  'activity.refresh.last': 'Updated {time}',
  'activity.refresh.never': 'Not refreshed yet',
  'activity.refresh.next': 'Next {time}',
  'activity.refresh.result': 'Checked {checked}, changed {changed}',
  'activity.refresh.resultFailed': 'Checked {checked}, changed {changed}, not reached {failed}',
  'activity.refresh.failed': 'Statuses were not refreshed',
  'activity.refresh.lastError': 'The last refresh failed: {error}',

  'activity.notice.delivered': 'Delivered: {count}',
  'activity.notice.returned': 'Returned: {count}',
  'activity.notice.problem': 'Delivery problems: {count}',
  'activity.notice.more': '{list} and {more} more',

  'activity.outbox.sending': 'Sending: {count}',
  'activity.outbox.waiting': 'Waiting for connection',
  'activity.outbox.queued': 'In queue: {count}',
  'activity.outbox.nextAttempt': 'Next attempt {time}',
  'activity.outbox.lastError': 'Last error: {error}',
  'activity.outbox.hint': 'The orders are saved and go out by themselves once the delivery service can be reached again.',

  'activity.stuck.button': 'Stuck: {count}',
  'activity.stuck.label': 'Stuck orders: {count}. Show the list',
  'activity.stuck.title': 'No new status for {days} days or more',
  'activity.stuck.days': '{days} d',
  'activity.stuck.more': 'and {count} more',
  'activity.stuck.hint': 'Open an order to see its history.',
} as const;

export const ru: SectionDictionary<typeof en> = {
  'activity.refresh.now': 'Обновить статусы',
  'activity.refresh.nowHint': 'Запросить у служб доставки новые статусы всех незавершённых заказов',
  'activity.refresh.running': 'Обновляем… {done} из {total}',
  'activity.refresh.starting': 'Обновляем…',
  'activity.refresh.progress': 'Ход обновления статусов',
  'activity.refresh.last': 'Обновлено {time}',
  'activity.refresh.never': 'Ещё не обновлялись',
  'activity.refresh.next': 'Следующее {time}',
  'activity.refresh.result': 'Проверено: {checked}, изменилось: {changed}',
  'activity.refresh.resultFailed': 'Проверено: {checked}, изменилось: {changed}, не удалось: {failed}',
  'activity.refresh.failed': 'Статусы не обновлены',
  'activity.refresh.lastError': 'Последнее обновление не удалось: {error}',

  'activity.notice.delivered': 'Вручено заказов: {count}',
  'activity.notice.returned': 'Возвращено заказов: {count}',
  'activity.notice.problem': 'Проблемы с доставкой: {count}',
  'activity.notice.more': '{list} и ещё {more}',

  'activity.outbox.sending': 'Отправляем: {count}',
  'activity.outbox.waiting': 'Ждём связи',
  'activity.outbox.queued': 'В очереди: {count}',
  'activity.outbox.nextAttempt': 'Следующая попытка {time}',
  'activity.outbox.lastError': 'Последняя ошибка: {error}',
  'activity.outbox.hint': 'Заказы сохранены и уйдут сами, как только служба доставки снова станет доступна.',

  'activity.stuck.button': 'Зависли: {count}',
  'activity.stuck.label': 'Зависших заказов: {count}. Показать список',
  'activity.stuck.title': 'Без нового статуса {days} дн. и дольше',
  'activity.stuck.days': '{days} дн.',
  'activity.stuck.more': 'и ещё {count}',
  'activity.stuck.hint': 'Откройте заказ, чтобы увидеть его историю.',
};
