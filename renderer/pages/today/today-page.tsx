import '@mantine/charts/styles.css';
import { Alert, Box, Center, Loader, SimpleGrid, Stack, Title } from '@mantine/core';
import { useEffect } from 'react';
import { usePushEvent } from '../../components/use-push-event';
import { errorTitle } from '../../i18n/error-messages';
import { useFormat, useT } from '../../i18n/use-t';
import { useDashboardStore } from '../../stores/dashboard-store';
import { useNavigationStore } from '../../stores/navigation-store';
import { AttentionCard } from './attention-card';
import { CreatedCard } from './created-card';
import { StatTile } from './figure-card';
import { openOrders } from './open-orders';
import { CodCard, DeliveryTimesCard, HandoverCard } from './service-cards';

let reloadTimer: ReturnType<typeof setTimeout> | undefined;

/** "Today": the day at a glance; every figure opens the orders it counts. */
export function TodayPage() {
  const t = useT();
  const fmt = useFormat();
  const { figures, error, load } = useDashboardStore();
  const go = useNavigationStore((s) => s.go);

  useEffect(() => {
    void load();
  }, [load]);
  // Changes come in bursts (a refresh, an import): count again once a burst is over.
  usePushEvent(['orders.changed', 'orders.notice', 'reconnected'], () => {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => void useDashboardStore.getState().load(), 400);
  });

  if (!figures) {
    return error ? (
      <Alert m="md" color="red" data-testid="today-error">
        {errorTitle(error, t)}
      </Alert>
    ) : (
      <Center h={300}>
        <Loader size="sm" aria-label={t('today.loading')} />
      </Center>
    );
  }
  const { created } = figures;
  return (
    <Box p="md" data-testid="today-page">
      <Stack gap="md" maw={1400}>
        <Title order={2} fz="xl">
          {t('today.title', { date: fmt.date(figures.today) })}
        </Title>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
          <StatTile label={t('today.created.today')} value={created.today.total} testId="today-stat-created-today" onOpen={() => openOrders({ dateFrom: created.today.dateFrom, dateTo: created.today.dateTo })} />
          <StatTile label={t('today.created.week')} value={created.week.total} testId="today-stat-created-week" onOpen={() => openOrders({ dateFrom: created.week.dateFrom, dateTo: created.week.dateTo })} />
          <StatTile label={t('attention.title')} value={figures.attention.total} color="red" testId="today-stat-attention" onOpen={() => openOrders({ attention: true })} />
          <StatTile label={t('today.handover.title')} value={figures.awaitingHandover.total} color="blue" testId="today-stat-handover" onOpen={() => go('dispatch')} />
        </SimpleGrid>
        <CreatedCard created={created} />
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <AttentionCard attention={figures.attention} />
          <HandoverCard handover={figures.awaitingHandover} />
          <CodCard cod={figures.codExpected} />
          <DeliveryTimesCard times={figures.deliveryTimes} today={figures.today} />
        </SimpleGrid>
      </Stack>
    </Box>
  );
}
