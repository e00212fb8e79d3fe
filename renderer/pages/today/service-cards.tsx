import { BarChart, BarsList } from '@mantine/charts';
import { Button, ColorSwatch, Group, Stack, Text } from '@mantine/core';
import type { TodayDashboard } from '../../../shared/contract/dashboard';
import { useFormat, useLanguage, useT } from '../../i18n/use-t';
import { intlLocale } from '../../i18n/translate';
import { useNavigationStore } from '../../stores/navigation-store';
import { barsListLook, FigureCard } from './figure-card';
import { clickThrough, openOrders } from './open-orders';

const serviceColors = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.6', 'pink.6'];
const colorOf = (i: number) => serviceColors[i % serviceColors.length];

/** Registered parcels not handed over yet, by service; the dispatch screen hands them over. */
export function HandoverCard({ handover }: { handover: TodayDashboard['awaitingHandover'] }) {
  const t = useT();
  const go = useNavigationStore((s) => s.go);
  return (
    <FigureCard
      title={t('today.handover.title')}
      testId="today-handover"
      action={
        <Button size="xs" variant="light" onClick={() => go('dispatch')} data-testid="today-open-dispatch">
          {t('today.handover.open')}
        </Button>
      }
    >
      {handover.total === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('today.handover.none')}
        </Text>
      ) : (
        <BarsList
          data={handover.byService.map((s) => ({ name: s.serviceName, value: s.orders, color: 'blue.1' }))}
          {...barsListLook}
          getBarProps={(bar) => {
            const key = handover.byService.find((s) => s.serviceName === bar.name)!.providerKey;
            return clickThrough(() => go('dispatch'), `handover-service-${key}`);
          }}
        />
      )}
    </FigureCard>
  );
}

/** Cash on delivery on its way: stacked by the day the orders name, and the total per service (opens its orders). */
export function CodCard({ cod }: { cod: TodayDashboard['codExpected'] }) {
  const t = useT();
  const fmt = useFormat();
  const days = [...new Set(cod.byService.flatMap((s) => s.byDay.map((d) => d.date)))].sort((a, b) => (a ?? '9999').localeCompare(b ?? '9999'));
  const data = days.map((date) => ({
    day: date ? fmt.date(date).slice(0, 5) : t('today.cod.noDate'),
    ...Object.fromEntries(cod.byService.map((s) => [s.providerKey, s.byDay.find((d) => d.date === date)?.amount ?? 0])),
  }));
  return (
    <FigureCard title={t('today.cod.title')} hint={t('today.cod.hint')} testId="today-cod">
      {cod.orders === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('today.cod.none')}
        </Text>
      ) : (
        <Stack gap="sm">
          <BarChart
            h={150}
            data={data}
            dataKey="day"
            type="stacked"
            valueFormatter={fmt.money}
            yAxisProps={{ width: 90 }}
            // Every day labelled: the axis would otherwise leave out a label it thinks too close (#15).
            xAxisProps={{ interval: 0 }}
            series={cod.byService.map((s, i) => ({ name: s.providerKey, label: s.serviceName, color: colorOf(i) }))}
          />
          {/* The legend in the page's flow: long service names wrap onto more lines instead of running over the list below (the chart's own legend has a fixed height). */}
          <Group gap="md" justify="center" data-testid="today-cod-legend">
            {cod.byService.map((s, i) => (
              <Group key={s.providerKey} gap={6} wrap="nowrap">
                <ColorSwatch color={`var(--mantine-color-${colorOf(i).replace('.', '-')})`} size={10} withShadow={false} />
                <Text fz="xs">{s.serviceName}</Text>
              </Group>
            ))}
          </Group>
          <BarsList
            data={cod.byService.map((s) => ({ name: `${s.serviceName} · ${t('today.cod.ordersCount', { count: s.orders })}`, value: s.amount, color: 'teal.1' }))}
            valueFormatter={fmt.money}
            {...barsListLook}
            getBarProps={(bar) => {
              const key = cod.byService.find((s) => bar.name.startsWith(`${s.serviceName} · `))!.providerKey;
              return clickThrough(() => openOrders({ providerKey: key, cod: 'yes', statusKeys: cod.statusKeys }), `cod-service-${key}`);
            }}
          />
        </Stack>
      )}
    </FigureCard>
  );
}

/** Days from creating an order to its delivery, per service, over the last 30 days (opens the delivered orders). */
export function DeliveryTimesCard({ times, today }: { times: TodayDashboard['deliveryTimes']; today: string }) {
  const t = useT();
  const fmt = useFormat();
  const language = useLanguage();
  const days = new Intl.NumberFormat(intlLocale(language), { maximumFractionDigits: 1 });
  return (
    <FigureCard title={t('today.times.title')} hint={t('today.times.hint', { date: fmt.date(times.dateFrom) })} testId="today-times">
      {times.byService.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('today.times.none')}
        </Text>
      ) : (
        <BarsList
          barsLabel={t('today.byService')}
          valueLabel={t('today.times.average')}
          data={times.byService.map((s) => ({
            name: `${s.serviceName} · ${s.fastestDays === s.slowestDays ? t('today.times.delivered', { count: s.delivered }) : t('today.times.range', { fastest: days.format(s.fastestDays), slowest: days.format(s.slowestDays), count: s.delivered })}`,
            value: s.averageDays,
            color: 'green.1',
          }))}
          valueFormatter={(value) => t('today.times.days', { days: days.format(value) })}
          {...barsListLook}
          getBarProps={(bar) => {
            const key = times.byService.find((s) => bar.name.startsWith(`${s.serviceName} · `))!.providerKey;
            return clickThrough(() => openOrders({ providerKey: key, statusKeys: ['delivered'], dateFrom: times.dateFrom, dateTo: today }), `times-service-${key}`);
          }}
        />
      )}
    </FigureCard>
  );
}
