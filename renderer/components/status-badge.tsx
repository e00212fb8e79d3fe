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

/** Names short enough for a table's status column at 1366 px; the full name shows on hover. */
const shortStatusNames: Readonly<Partial<Record<StatusKey, { ru: string; en: string }>>> = {
  uploading: { ru: 'Передаётся', en: 'Sending' },
  uploaded: { ru: 'Зарегистрирован', en: 'Registered' },
  uploadingError: { ru: 'Ошибка передачи', en: 'Transfer failed' },
  onPointIn: { ru: 'Принят службой', en: 'Accepted' },
  onPointOut: { ru: 'Прибыл в город', en: 'In the city' },
  delivering: { ru: 'У курьера', en: 'Out for delivery' },
  returnedFromDelivery: { ru: 'Возврат с доставки', en: 'Back from delivery' },
  returnReady: { ru: 'Возврат к выдаче', en: 'Return ready' },
  returning: { ru: 'Возвращается', en: 'Returning' },
  returned: { ru: 'Возвращён', en: 'Returned' },
  problem: { ru: 'Проблема', en: 'Problem' },
  unknown: { ru: 'Неизвестен', en: 'Unknown' },
};

interface StatusBadgeProps {
  statusKey: StatusKey;
  /** The short name (a table column); the full one is its title. */
  compact?: boolean;
  /** The delivery service's own wording, shown on hover. */
  description?: string | null;
}

/** An order status as a coloured badge in the interface language. */
export function StatusBadge({ statusKey, description, compact = false }: StatusBadgeProps) {
  const language = useLanguage();
  const name = statusNames[statusKey]?.[language] ?? statusKey;
  const shown = (compact && shortStatusNames[statusKey]?.[language]) || name;
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
      {shown}
    </Badge>
  );
  return description ? (
    <Tooltip label={shown === name ? description : `${name}: ${description}`} withArrow openDelay={300} multiline maw={320}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
