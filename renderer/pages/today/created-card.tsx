import { BarsList, DonutChart } from '@mantine/charts';
import { Group, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { TodayDashboard } from '../../../shared/contract/dashboard';
import { statusNames } from '../../../shared/status-keys';
import { statusColors } from '../../components/status-badge';
import { useLanguage, useT } from '../../i18n/use-t';
import { barsListLook, FigureCard } from './figure-card';
import { clickThrough, openOrders } from './open-orders';

type Period = 'today' | 'week';

/** Orders created today or this week: a ring and bars by status, bars by service; each bar opens its orders. */
export function CreatedCard({ created }: { created: TodayDashboard['created'] }) {
  const t = useT();
  const language = useLanguage();
  const [period, setPeriod] = useState<Period>('week');
  const figures = created[period];
  const dates = { dateFrom: figures.dateFrom, dateTo: figures.dateTo };
  const byStatus = figures.byStatus.map((s) => ({ key: s.statusKey, name: statusNames[s.statusKey][language], value: s.orders, color: `${statusColors[s.statusKey]}.2` }));
  return (
    <FigureCard
      title={t('today.created.chart')}
      testId="today-created"
      action={
        <SegmentedControl
          size="xs"
          value={period}
          onChange={(value) => setPeriod(value as Period)}
          data={[
            { value: 'today', label: t('today.period.today') },
            { value: 'week', label: t('today.period.week') },
          ]}
          data-testid="today-period"
        />
      }
    >
      {figures.total === 0 ? (
        <Text c="dimmed" fz="sm" data-testid="today-created-empty">
          {t('today.noOrders')}
        </Text>
      ) : (
        <Group align="flex-start" wrap="nowrap" gap="lg">
          <DonutChart data={byStatus.map((s) => ({ ...s, color: s.color.replace(/\.2$/, '.6') }))} size={150} thickness={24} chartLabel={figures.total} withTooltip={false} style={{ flexShrink: 0 }} />
          <SimpleGrid cols={{ base: 1, lg: 2 }} style={{ flex: 1 }} spacing="md">
            <Stack gap={4}>
              <Text fz="xs" c="dimmed" fw={600} tt="uppercase">
                {t('today.byStatus')}
              </Text>
              <BarsList
                data={byStatus.map(({ name, value, color }) => ({ name, value, color }))}
                {...barsListLook}
                getBarProps={(bar) => {
                  const key = byStatus.find((s) => s.name === bar.name)!.key;
                  return clickThrough(() => openOrders({ ...dates, statusKeys: [key] }), `created-status-${key}`);
                }}
              />
            </Stack>
            <Stack gap={4}>
              <Text fz="xs" c="dimmed" fw={600} tt="uppercase">
                {t('today.byService')}
              </Text>
              <BarsList
                data={figures.byService.map((s) => ({ name: s.serviceName, value: s.orders, color: 'blue.1' }))}
                {...barsListLook}
                getBarProps={(bar) => {
                  const key = figures.byService.find((s) => s.serviceName === bar.name)!.providerKey;
                  return clickThrough(() => openOrders({ ...dates, providerKey: key }), `created-service-${key}`);
                }}
              />
            </Stack>
          </SimpleGrid>
        </Group>
      )}
    </FigureCard>
  );
}
