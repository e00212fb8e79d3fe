import { Drawer } from '@mantine/core';
import type { KeyboardEvent } from 'react';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { OrderForm } from './order-form';
import { useSubmitOrder } from './use-submit-order';

/**
 * The new-order form slides in from the right; Esc or the close button hides it, the values stay.
 * Ctrl/⌘+Enter submits from anywhere in the drawer, the header's close button included.
 */
export function OrderFormDrawer() {
  const t = useT();
  const opened = useOrderFormStore((s) => s.opened);
  const close = useOrderFormStore((s) => s.close);
  const send = useSubmitOrder();
  // Capture phase: a focused select would otherwise take the Enter to open its dropdown.
  const submitOnModEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    void send();
  };
  return (
    <Drawer.Root opened={opened} onClose={close} position="right" size={680} closeOnEscape trapFocus returnFocus>
      <Drawer.Overlay backgroundOpacity={0.3} />
      <Drawer.Content aria-labelledby="order-form-title" onKeyDownCapture={submitOnModEnter}>
        <Drawer.Header style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} py="sm">
          <Drawer.Title id="order-form-title" fw={600} fz="lg">
            {t('form.title')}
          </Drawer.Title>
          <Drawer.CloseButton aria-label={t('form.cancel')} />
        </Drawer.Header>
        <Drawer.Body p={0}>{opened && <OrderForm />}</Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}
