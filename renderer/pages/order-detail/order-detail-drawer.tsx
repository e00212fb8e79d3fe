import { Alert, Button, Center, Divider, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { IconAlert } from '../../components/icons';
import { StatusBadge } from '../../components/status-badge';
import { usePushEvent } from '../../components/use-push-event';
import { errorHint, errorTitle, messageByKey } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useOrderDetailStore } from '../../stores/order-detail-store';
import { providerName, useProvidersStore } from '../../stores/providers-store';
import { OrderActions } from './order-actions';
import { OrderContents, OrderCosts } from './order-contents';
import { OrderNumbers } from './order-numbers';
import { OrderParties } from './order-parties';
import { useOrderViewStore } from './order-view-store';
import { NextTestChangeNote } from './next-test-change';
import { OutboxNote } from './outbox-note';
import { StatusTimeline } from './status-timeline';
import { drawerBelowHeader } from '../../app/below-header';
import type { Translate } from '../../i18n/types';
import type { OrderView } from '../../../shared/schemas/order-detail';
import type { ProviderInfo } from '../../../shared/contract/providers';

/** What the service last said of the order, in the window's language (its own words only when no key translates them). */
function statusSaid(view: OrderView, t: Translate, providers: readonly ProviderInfo[]): string {
  if (!view.statusDescription) return '';
  const keyed = view.statusDescriptionMessage && messageByKey(view.statusDescriptionMessage, t, { service: (key) => providerName(providers, key) });
  return keyed || t('detail.serviceSays', { text: view.statusDescription });
}

/**
 * The order detail slides in from the right when the list opens an order (useOrderDetailStore).
 * It follows the order live: a push event naming it reloads it (a change, or its outbox job back from a try, its last
 * failure then shown). Escape or the close button hides it.
 */
export function OrderDetailDrawer() {
  const t = useT();
  const orderId = useOrderDetailStore((s) => s.orderId);
  const close = useOrderDetailStore((s) => s.close);
  const view = useOrderViewStore((s) => s.view);
  const show = useOrderViewStore((s) => s.show);
  const failed = useOrderViewStore((s) => s.status === 'error');
  const providers = useProvidersStore((s) => s.providers);

  useEffect(() => {
    void show(orderId);
    if (orderId !== undefined) void useProvidersStore.getState().load();
  }, [orderId, show]);

  usePushEvent(['orders.changed', 'reconnected', 'outbox.state'], (event) => {
    if (orderId === undefined) return;
    // orders.changed names the orders that changed; outbox.state the orders whose jobs came back (got through, or
    // failed a try: its last error shows). Another order's news leaves this one as it is.
    const ids = Array.isArray(event.orderIds) ? event.orderIds.map(String) : undefined;
    if (event.type === 'reconnected' || ids?.includes(orderId)) void useOrderViewStore.getState().reload();
  });

  const number = view && view.order.orderId === orderId ? view.order.clientNumber : '';
  return (
    <Drawer.Root opened={orderId !== undefined} onClose={close} position="right" size={640} styles={drawerBelowHeader.styles} closeOnEscape trapFocus returnFocus>
      <Drawer.Overlay backgroundOpacity={0.3} style={drawerBelowHeader.overlayStyle} />
      <Drawer.Content aria-labelledby="order-detail-title" data-testid="order-detail">
        <Drawer.Header style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} py="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Drawer.Title id="order-detail-title" fw={600} fz="lg" className="sd-ellipsis">
              {number ? t('detail.title', { number }) : failed ? t('detail.loadFailed') : t('detail.loading')}
            </Drawer.Title>
            {view && number && <StatusBadge statusKey={view.order.statusKey} description={statusSaid(view, t, providers)} />}
          </Group>
          <Drawer.CloseButton aria-label={t('detail.close')} />
        </Drawer.Header>
        <Drawer.Body p="md">{orderId !== undefined && <DetailBody />}</Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}

function DetailBody() {
  const t = useT();
  const status = useOrderViewStore((s) => s.status);
  const view = useOrderViewStore((s) => s.view);
  const history = useOrderViewStore((s) => s.history);
  const error = useOrderViewStore((s) => s.error);
  const reload = useOrderViewStore((s) => s.reload);
  const providers = useProvidersStore((s) => s.providers);

  if (status === 'error' && error) {
    return (
      <Alert color="red" variant="light" icon={<IconAlert size={18} />} title={t('detail.loadFailed')} data-testid="detail-error">
        <Text fz="sm">{errorTitle(error, t)}</Text>
        {errorHint(error, t) && <Text fz="sm" c="dimmed">{errorHint(error, t)}</Text>}
        <Button mt="sm" size="xs" variant="light" color="red" onClick={() => void reload()}>
          {t('detail.retry')}
        </Button>
      </Alert>
    );
  }
  if (!view) {
    return (
      <Center py="xl" aria-busy>
        <Loader size="sm" aria-label={t('detail.loading')} />
      </Center>
    );
  }
  return (
    <Stack gap="lg" data-status={view.order.statusKey}>
      {view.statusDescription && (
        <Text fz="sm" c="dimmed" data-testid="detail-status-description">
          {statusSaid(view, t, providers)}
        </Text>
      )}
      <OutboxNote job={view.outbox} />
      <NextTestChangeNote orderId={view.order.orderId} statusKey={view.order.statusKey} />
      <OrderActions view={view} />
      <OrderNumbers view={view} />
      <Divider />
      <StatusTimeline history={history} handover={view.handover} />
      <Divider />
      <OrderParties view={view} />
      <OrderContents view={view} />
      <OrderCosts view={view} />
    </Stack>
  );
}
