import { Badge, UnstyledButton } from '@mantine/core';
import { useT } from '../../i18n/use-t';
import { openOrders } from '../../pages/today/open-orders';
import { useAttentionStore } from '../../stores/attention-store';
import { IconAlert } from '../icons';

/** Orders that need attention: a red count in the header from the first one; a click lists them with their reasons. */
export function AttentionButton() {
  const t = useT();
  const total = useAttentionStore((s) => s.total ?? 0);
  if (total === 0) return null;
  return (
    <UnstyledButton onClick={() => openOrders({ attention: true })} aria-label={t('attention.label', { count: total })} data-testid="attention-badge" data-count={total}>
      <Badge variant="filled" color="red" size="lg" radius="sm" tt="none" fw={600} leftSection={<IconAlert size={15} />} style={{ cursor: 'pointer' }}>
        {t('attention.button', { count: total })}
      </Badge>
    </UnstyledButton>
  );
}
