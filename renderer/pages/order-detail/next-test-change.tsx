import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { statusNames, type StatusKey } from '../../../shared/status-keys';
import { IconClock } from '../../components/icons';
import { useFormat, useLanguage, useT } from '../../i18n/use-t';
import type { NextTestChange } from '../../stores/refresh-store';
import { getTransport } from '../../transport/current';

/**
 * At a test service statuses follow a fixed schedule hours apart: the order says when its next one is
 * due, so "Refresh statuses" finding nothing new before then is no surprise. Nothing for real services.
 */
export function NextTestChangeNote({ orderId, statusKey }: { orderId: string; statusKey: StatusKey }) {
  const t = useT();
  const format = useFormat();
  const language = useLanguage();
  const [next, setNext] = useState<NextTestChange | null>(null);
  useEffect(() => {
    let current = true;
    void getTransport()
      .invoke('statuses.nextTestChange', { orderId })
      .then((answer) => current && setNext(answer.ok ? answer.value.next : null));
    return () => {
      current = false;
    };
  }, [orderId, statusKey]);
  if (!next) return null;
  return (
    <Text fz="xs" c="dimmed" mt={4} data-testid="next-test-change" style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
      <IconClock size={14} />
      {t('testSchedule.next', { status: statusNames[next.statusKey][language], time: format.dateTime(next.at) })}
    </Text>
  );
}
