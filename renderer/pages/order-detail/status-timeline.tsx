import { Group, Text, Timeline, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import type { OrderView } from '../../../shared/schemas/order-detail';
import type { AppHistoryRow, AppStatusHistory } from '../../../shared/schemas/statuses';
import { statusNames, type StatusKey } from '../../../shared/status-keys';
import { statusColors } from '../../components/status-badge';
import { translateDynamic } from '../../i18n/translate';
import { useFormat, useLanguage, useT } from '../../i18n/use-t';
import { DetailSection } from './detail-section';
import { messageByKey } from '../../i18n/error-messages';
import { useServiceNaming } from '../../i18n/service-naming';

/** When a status happened: the service's time when it gave one, else when ShipDesk learned it. */
const happenedAt = (row: AppHistoryRow) => row.createdProvider || row.created;

/** A minute or more apart: ShipDesk's own time is worth showing beside the service's. */
const apart = (a: string, b: string) => Math.abs(new Date(a).getTime() - new Date(b).getTime()) >= 60_000;

/**
 * The order's statuses, newest first by when the service recorded them (several learned in one check
 * keep their own times and order), each with its description and the service's own wording; when
 * ShipDesk learned of it shows as a second, quieter time. The handover to the service (dispatch
 * screen) sits among them at its time.
 */
export function StatusTimeline({ history, handover }: { history: AppStatusHistory | undefined; handover?: OrderView['handover'] }) {
  const t = useT();
  const format = useFormat();
  const language = useLanguage();
  const naming = useServiceNaming();
  const rows = [...(history?.rows ?? [])].sort((a, b) => new Date(happenedAt(b)).getTime() - new Date(happenedAt(a)).getTime());
  const handoverAt = handover ? rows.findIndex((row) => Date.parse(happenedAt(row)) <= Date.parse(handover.handedAt)) : -1;
  const placed = (items: ReactNode[]): ReactNode[] => {
    if (!handoverItem) return items;
    const at = handoverAt < 0 ? items.length : handoverAt;
    return [...items.slice(0, at), handoverItem, ...items.slice(at)];
  };
  const handoverItem = handover && (
    <Timeline.Item key="handover" color="teal" data-testid="timeline-handover" title={
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text fz="sm" fw={500}>
          {t('dispatch.handedOverAt', { number: handover.number })}
        </Text>
        <Text fz="xs" c="dimmed" className="sd-numeric" component="time" dateTime={handover.handedAt}>
          {format.dateTime(handover.handedAt)}
        </Text>
      </Group>
    } />
  );
  return (
    <DetailSection title={t('detail.section.timeline')} testId="detail-timeline">
      {rows.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t('detail.timeline.empty')}
        </Text>
      ) : (
        <Timeline active={0} bulletSize={14} lineWidth={2} mt={4}>
          {placed(rows.map((row, i) => {
            const key = row.key as StatusKey;
            const providerWords = [row.providerName, row.providerDescription !== row.description ? row.providerDescription : ''].filter(Boolean).join(' — ');
            return (
              <Timeline.Item
                key={`${row.created}-${row.key}-${i}`}
                color={statusColors[key] ?? 'gray'}
                data-testid="timeline-item"
                data-status={row.key}
                title={
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text fz="sm" fw={i === 0 ? 700 : 500}>
                      {statusNames[key]?.[language] ?? row.name}
                    </Text>
                    <Text fz="xs" c="dimmed" className="sd-numeric" component="time" dateTime={happenedAt(row)} data-testid="timeline-time">
                      {format.dateTime(happenedAt(row))}
                    </Text>
                  </Group>
                }
              >
                {row.createdProvider && apart(row.createdProvider, row.created) && (
                  <Text fz="xs" c="dimmed" data-testid="timeline-learned">
                    {t('detail.timeline.learned', { time: format.dateTime(row.created) })}
                  </Text>
                )}
                {row.description && (
                  <Text fz="xs" c="dimmed">
                    {(row.descriptionMessage && messageByKey(row.descriptionMessage, t, naming)) || row.description}
                  </Text>
                )}
                {/* The service's words; its own status code (to quote to its support, not to read) only on hover. */}
                {(providerWords || row.providerCode) && (
                  <Tooltip label={t('detail.timeline.providerCode', { code: row.providerCode })} disabled={!row.providerCode || !providerWords} withArrow openDelay={300}>
                    <Text fz="xs" c="dimmed" data-testid="timeline-provider" data-provider-code={row.providerCode || undefined}>
                      {providerWords ? t('detail.timeline.provider', { text: providerWords }) : t('detail.timeline.providerCode', { code: row.providerCode })}
                    </Text>
                  </Tooltip>
                )}
                {row.errorCode && (
                  <Text fz="xs" c="red">
                    {translateDynamic(t, `detail.timeline.errorCode.${row.errorCode}`) ?? t('detail.timeline.errorCode', { code: row.errorCode })}
                  </Text>
                )}
              </Timeline.Item>
            );
          }))}
        </Timeline>
      )}
      {history && history.meta.total > rows.length && (
        <Text fz="xs" c="dimmed" mt="xs">
          {t('detail.timeline.more', { shown: rows.length, total: history.meta.total })}
        </Text>
      )}
    </DetailSection>
  );
}
