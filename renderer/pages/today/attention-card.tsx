import { BarsList } from '@mantine/charts';
import { Button, Text } from '@mantine/core';
import type { TodayDashboard } from '../../../shared/contract/dashboard';
import { problemStatusKeys, returnStatusKeys, type AttentionReason } from '../../../shared/attention';
import type { StatusKey } from '../../../shared/status-keys';
import { useT } from '../../i18n/use-t';
import { barsListLook, FigureCard } from './figure-card';
import { clickThrough, openOrders } from './open-orders';

/** The statuses behind each reason, for the list filter (both refusals are uploadingError). */
export const reasonStatusKeys: Record<AttentionReason, readonly StatusKey[]> = {
  registrationFailed: ['uploadingError'],
  updateRefused: ['uploadingError'],
  returned: returnStatusKeys,
  problem: problemStatusKeys,
};

const reasonColors: Record<AttentionReason, string> = { registrationFailed: 'red.2', updateRefused: 'red.1', returned: 'orange.2', problem: 'red.3' };

/** What needs attention, by reason; a bar opens those orders, the button all of them. */
export function AttentionCard({ attention }: { attention: TodayDashboard['attention'] }) {
  const t = useT();
  const reasons = attention.byReason.filter((r) => r.orders > 0);
  return (
    <FigureCard
      title={t('attention.title')}
      testId="today-attention"
      action={
        attention.total > 0 && (
          <Button size="xs" variant="light" color="red" onClick={() => openOrders({ attention: true })} data-testid="today-attention-all">
            {t('today.attention.showAll')}
          </Button>
        )
      }
    >
      {reasons.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('today.attention.none')}
        </Text>
      ) : (
        <BarsList
          data={reasons.map((r) => ({ name: t(`attention.reason.${r.reason}`), value: r.orders, color: reasonColors[r.reason] }))}
          {...barsListLook}
          getBarProps={(bar) => {
            const reason = reasons.find((r) => t(`attention.reason.${r.reason}`) === bar.name)!.reason;
            return clickThrough(() => openOrders({ attention: true, statusKeys: [...reasonStatusKeys[reason]] }), `attention-reason-${reason}`);
          }}
        />
      )}
    </FigureCard>
  );
}
