import { Button, EmptyState } from '@mantine/core';
import { IconPackage, IconPlus, IconSearch } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useOrderFormStore } from '../../stores/order-form-store';
import { useOrdersStore } from '../../stores/orders-store';

/** No rows: either the shop has no orders yet, or the search found none. */
export function OrdersEmpty() {
  const t = useT();
  const search = useOrdersStore((s) => s.search.trim());
  const setSearch = useOrdersStore((s) => s.setSearch);
  const openForm = useOrderFormStore((s) => s.open);

  if (search) {
    return (
      <EmptyState
        mt={64}
        icon={<IconSearch size={28} />}
        withIndicatorBackground
        title={t('orders.empty.searchTitle')}
        description={t('orders.empty.searchBody', { search })}
        data-testid="orders-empty"
      >
        <EmptyState.Actions>
          <Button variant="default" onClick={() => setSearch('')}>
            {t('orders.empty.clearSearch')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  }
  return (
    <EmptyState
      mt={64}
      icon={<IconPackage size={28} />}
      withIndicatorBackground
      title={t('orders.empty.title')}
      description={t('orders.empty.body')}
      data-testid="orders-empty"
    >
      <EmptyState.Actions>
        <Button leftSection={<IconPlus size={16} />} onClick={openForm}>
          {t('orders.new')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
