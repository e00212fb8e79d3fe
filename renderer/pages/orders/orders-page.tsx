import { Alert, Box, Button, Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { IconAlert } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useOrdersStore } from '../../stores/orders-store';
import { useProvidersStore } from '../../stores/providers-store';
import { BulkActionsBar } from './bulk-actions';
import { OrdersEmpty } from './orders-empty';
import { OrdersFilters } from './orders-filters';
import { OrdersFooter } from './orders-footer';
import { OrdersTable, useOrderTable } from './orders-table';
import { OrdersToolbar } from './orders-toolbar';

/** The orders list: toolbar, filters, the virtualized table filling the window, the count. */
export function OrdersPage() {
  // One word for what the page shows, so a request starting or ending does not re-render the toolbar
  // and the filters (a keystroke in the search box makes two of them).
  const view = useOrdersStore((s) => {
    if (Object.values(s.windows).some((rows) => rows.length > 0)) return 'rows';
    // Nothing to show yet: a spinner, not the empty state, until the first answer arrives.
    if (s.status === 'idle' || s.status === 'loading') return 'waiting';
    return s.status === 'error' ? 'error' : 'empty';
  });
  const table = useOrderTable();
  // The services of the rows fetched: one connected since the window loaded is named, not shown by its key.
  const shownServices = useOrdersStore((s) => [...new Set(Object.values(s.windows).flatMap((rows) => rows.map((o) => o.providerKey)))].sort().join('\n'));
  const servicesReady = useProvidersStore((s) => s.status === 'ready');
  useEffect(() => {
    if (servicesReady && shownServices) useProvidersStore.getState().ensureKnown(shownServices.split('\n'));
  }, [shownServices, servicesReady]);

  useEffect(() => {
    void useProvidersStore.getState().load();
    if (useOrdersStore.getState().status === 'idle') void useOrdersStore.getState().load();
  }, []);

  return (
    <Box h="calc(100dvh - var(--app-shell-header-offset, 48px))" style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <OrdersToolbar table={table} />
      <OrdersFilters />
      <LoadError />
      <BulkActionsBar />
      <Box style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        {view === 'rows' ? (
          <OrdersTable table={table} />
        ) : view === 'waiting' ? (
          <Center h="100%">
            <Loader size="sm" />
          </Center>
        ) : (
          view === 'empty' && <OrdersEmpty />
        )}
      </Box>
      {view === 'rows' && <OrdersFooter />}
    </Box>
  );
}

function LoadError() {
  const t = useT();
  const error = useOrdersStore((s) => (s.status === 'error' ? s.error : undefined));
  const load = useOrdersStore((s) => s.load);
  if (!error) return null;
  return (
    <Alert
      mx="md"
      mb="sm"
      color="red"
      variant="light"
      icon={<IconAlert size={18} />}
      title={`${t('orders.loadError')}: ${errorTitle(error, t)}`}
      data-testid="orders-error"
    >
      {errorHint(error, t)}
      <Button size="xs" variant="light" color="red" ml={errorHint(error, t) ? 'sm' : 0} onClick={() => void load()}>
        {t('orders.retry')}
      </Button>
    </Alert>
  );
}
