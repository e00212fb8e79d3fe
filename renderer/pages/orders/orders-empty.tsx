import { Button, EmptyState } from '@mantine/core';
import { IconPackage, IconPlus, IconSearch } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useOrderFormStore } from '../../stores/order-form-store';
import { isNarrowed, useOrdersStore } from '../../stores/orders-store';

/** No rows: the shop has no orders yet, the search found none, or the filters leave none. */
export function OrdersEmpty() {
  const t = useT();
  const search = useOrdersStore((s) => s.search.trim());
  const filtered = useOrdersStore((s) => isNarrowed({ search: '', filter: s.filter }));
  const setSearch = useOrdersStore((s) => s.setSearch);
  const clearFilters = useOrdersStore((s) => s.clearFilters);
  const openForm = useOrderFormStore((s) => s.open);

  if (filtered && !search) {
    return (
      <EmptyState
        mt={64}
        icon={<IconSearch size={28} />}
        withIndicatorBackground
        title={t('ordersList.empty.filterTitle')}
        description={t('ordersList.empty.filterBody')}
        data-testid="orders-empty"
      >
        <EmptyState.Actions>
          <Button variant="default" onClick={clearFilters}>
            {t('ordersList.filter.clear')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  }

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
