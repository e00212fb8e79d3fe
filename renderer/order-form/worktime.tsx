import { Text } from '@mantine/core';
import { useT } from '../i18n/use-t';
import type { PlainMessageKey } from '../i18n/types';
import { worktimeGroups } from './order-parcel';

const dayKeys: readonly PlainMessageKey[] = ['entry.day.1', 'entry.day.2', 'entry.day.3', 'entry.day.4', 'entry.day.5', 'entry.day.6', 'entry.day.7'];

/** A point's hours in one line: "Mon–Fri 10:00–20:00 · Sat 10:00–18:00 · Sun closed". */
export function Worktime({ worktime }: { worktime: Readonly<Record<string, string>> }) {
  const t = useT();
  const day = (n: number) => t(dayKeys[n - 1]);
  const text = worktimeGroups(worktime)
    .map((g) => `${g.from === g.to ? day(g.from) : `${day(g.from)}–${day(g.to)}`} ${g.hours ?? t('entry.day.closed')}`)
    .join(' · ');
  return (
    <Text size="xs" c="dimmed" data-testid="point-hours">
      {t('entry.point.hours')}: {text}
    </Text>
  );
}
