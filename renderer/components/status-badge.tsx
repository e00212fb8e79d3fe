import { Badge, Tooltip, type MantineColor } from '@mantine/core';
import { statusNames, type StatusKey } from '../../shared/status-keys';
import { useLanguage } from '../i18n/use-t';

/** Colour by meaning: blue while moving, teal when waiting for the recipient, green done, orange returns, red trouble. */
export const statusColors: Readonly<Record<StatusKey, MantineColor>> = {
  uploading: 'gray',
  uploaded: 'blue',
  uploadingError: 'red',
  onPointIn: 'blue',
  onWay: 'indigo',
  onPointOut: 'indigo',
  readyForRecipient: 'teal',
  delivering: 'cyan',
  delivered: 'green',
  deliveryCanceled: 'gray',
  returnedFromDelivery: 'orange',
  partialReturn: 'orange',
  returnReady: 'orange',
  returning: 'orange',
  returned: 'yellow',
  problem: 'red',
  lost: 'red',
  unknown: 'gray',
  notApplicable: 'gray',
};

interface StatusBadgeProps {
  statusKey: StatusKey;
  /** The delivery service's own wording, shown on hover. */
  description?: string | null;
}

/** An order status as a coloured badge in the interface language. */
export function StatusBadge({ statusKey, description }: StatusBadgeProps) {
  const language = useLanguage();
  const name = statusNames[statusKey]?.[language] ?? statusKey;
  const badge = (
    <Badge
      color={statusColors[statusKey] ?? 'gray'}
      variant="light"
      radius="sm"
      size="sm"
      tt="none"
      fw={600}
      maw="100%"
      title={description ? undefined : name}
      data-status={statusKey}
    >
      {name}
    </Badge>
  );
  return description ? (
    <Tooltip label={description} withArrow openDelay={300} multiline maw={320}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
