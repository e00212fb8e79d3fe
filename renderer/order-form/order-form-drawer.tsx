import { Drawer } from '@mantine/core';
import { useEffect, type KeyboardEvent } from 'react';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { startDraftAutosave } from './draft-autosave';
import { OrderForm } from './order-form';
import { ResumeDraftPrompt } from './resume-draft-prompt';
import { useSubmitOrder } from './use-submit-order';
import { drawerBelowHeader } from '../app/below-header';

/**
 * The new-order form slides in from the right; Esc or the close button hides it, the values stay
 * (and are saved as a draft). Ctrl/⌘+Enter submits and Ctrl/⌘+S saves the draft from anywhere in
 * the drawer, the header's close button included.
 */
export function OrderFormDrawer() {
  const t = useT();
  const opened = useOrderFormStore((s) => s.opened);
  const close = useOrderFormStore((s) => s.close);
  const editing = useOrderFormStore((s) => s.editingOrderId !== null);
  const send = useSubmitOrder();
  useEffect(() => startDraftAutosave(), []);
  // Capture phase: a focused select would otherwise take the Enter to open its dropdown.
  const onKeyDownCapture = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      event.stopPropagation();
      void send();
    } else if (event.code === 'KeyS') {
      // The physical key, so it also works with the Russian layout (where it types "ы"); the browser's own "save page" is not wanted here.
      event.preventDefault();
      event.stopPropagation();
      void useOrderFormStore.getState().draftHooks?.flush();
    }
  };
  return (
    <>
      <Drawer.Root opened={opened} onClose={close} position="right" size={760} styles={drawerBelowHeader.styles} closeOnEscape trapFocus returnFocus>
        <Drawer.Overlay backgroundOpacity={0.3} style={drawerBelowHeader.overlayStyle} />
        <Drawer.Content aria-labelledby="order-form-title" onKeyDownCapture={onKeyDownCapture}>
          <Drawer.Header style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} py="sm">
            <Drawer.Title id="order-form-title" fw={600} fz="lg">
              {editing ? t('form.titleEdit') : t('form.title')}
            </Drawer.Title>
            <Drawer.CloseButton aria-label={t('form.cancel')} />
          </Drawer.Header>
          <Drawer.Body p={0}>{opened && <OrderForm />}</Drawer.Body>
        </Drawer.Content>
      </Drawer.Root>
      <ResumeDraftPrompt />
    </>
  );
}
