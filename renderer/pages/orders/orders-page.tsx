import { Alert, Box, Button, Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { IconAlert } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useOrdersStore } from '../../stores/orders-store';
import { useProvidersStore } from '../../stores/providers-store';
import { OrdersEmpty } from './orders-empty';
import { OrdersFooter } from './orders-footer';
import { OrdersTable } from './orders-table';
import { OrdersToolbar } from './orders-toolbar';

/** The orders list: toolbar, table filling the window, pager. */
export function OrdersPage() {
  const status = useOrdersStore((s) => s.status);
  const hasRows = useOrdersStore((s) => s.rows.length > 0);

  useEffect(() => {
    void useProvidersStore.getState().load();
    if (useOrdersStore.getState().status === 'idle') void useOrdersStore.getState().load();
  }, []);

  // Nothing to show yet: a spinner, not the empty state, until the first answer arrives.
  const waiting = status === 'idle' || (status === 'loading' && !hasRows);

  return (
    <Box h="calc(100dvh - var(--app-shell-header-offset, 48px))" style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <OrdersToolbar />
      <LoadError />
      <Box style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
        {hasRows ? (
          <OrdersTable />
        ) : waiting ? (
          <Center h="100%">
            <Loader size="sm" />
          </Center>
        ) : (
          status !== 'error' && <OrdersEmpty />
        )}
      </Box>
      {hasRows && <OrdersFooter />}
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
