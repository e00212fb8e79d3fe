import { ActionIcon, Button, CloseButton, Group, Kbd, Loader, TextInput, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconRefresh, IconSearch } from '../../components/icons';
import { modKey } from '../../app/platform';
import { useT } from '../../i18n/use-t';
import { useOrderFormStore } from '../../stores/order-form-store';
import { useOrdersStore } from '../../stores/orders-store';
import { ExportButton } from './bulk-actions';
import { ColumnMenu } from './column-menu';
import type { OrderTable } from './orders-table';

/** Page title, search, refresh, columns, export and the "New order" button. */
export function OrdersToolbar({ table }: { table: OrderTable }) {
  const t = useT();
  const openForm = useOrderFormStore((s) => s.open);
  const anySelected = useOrdersStore((s) => s.selected.size > 0);
  return (
    <Group px="md" py="sm" gap="sm" wrap="nowrap" justify="space-between">
      <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        <Title order={2} fz="lg" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {t('orders.title')}
        </Title>
        <SearchBox />
        <RefreshButton />
      </Group>
      <ColumnMenu table={table} />
      {/* With orders checked, export sits in the bulk bar beside the other actions on them. */}
      {!anySelected && <ExportButton />}
      <Button
        leftSection={<IconPlus size={16} stroke={2} />}
        rightSection={
          <Kbd size="xs" visibleFrom="md" style={{ opacity: 0.8 }}>
            {modKey}+N
          </Kbd>
        }
        onClick={openForm}
        data-testid="new-order-button"
        aria-keyshortcuts="Control+N Meta+N"
      >
        {t('orders.new')}
      </Button>
    </Group>
  );
}

/** Reloads the list; spins while a request is out (its own component: that changes on every keystroke). */
function RefreshButton() {
  const t = useT();
  const loading = useOrdersStore((s) => s.status === 'loading');
  const load = useOrdersStore((s) => s.load);
  return (
    <Tooltip label={t('orders.refresh')} openDelay={300}>
      <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => void load()} aria-label={t('orders.refresh')}>
        {loading ? <Loader size={14} color="gray" /> : <IconRefresh size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

function SearchBox() {
  const t = useT();
  const text = useOrdersStore((s) => s.searchText);
  const typeSearch = useOrdersStore((s) => s.typeSearch);
  const setSearch = useOrdersStore((s) => s.setSearch);
  return (
    <TextInput
      type="search"
      value={text}
      onChange={(e) => typeSearch(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') setSearch(e.currentTarget.value);
        if (e.key === 'ArrowDown') {
          // From the search straight into the results.
          e.preventDefault();
          document.querySelector<HTMLElement>('[data-testid="orders-table"]')?.focus();
        }
        if (e.key === 'Escape' && text) {
          e.stopPropagation();
          setSearch('');
        }
      }}
      placeholder={t('orders.search.placeholder')}
      aria-label={t('orders.search.label')}
      aria-keyshortcuts="Control+F /"
      leftSection={<IconSearch size={16} />}
      rightSection={text ? <CloseButton size="sm" aria-label={t('orders.empty.clearSearch')} onClick={() => setSearch('')} /> : null}
      w={340}
      maw="100%"
      data-testid="search-input"
      styles={{ input: { WebkitAppearance: 'none' } }}
    />
  );
}
