import { Notification, Portal, Stack } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useToastStore, type ToastTone } from '../stores/toast-store';
import { IconAlert, IconCheck, IconInfo } from './icons';

const tone: Record<ToastTone, { color: string; icon: React.ReactNode }> = {
  success: { color: 'green', icon: <IconCheck size={18} /> },
  error: { color: 'red', icon: <IconAlert size={18} /> },
  info: { color: 'blue', icon: <IconInfo size={18} /> },
};

/**
 * Renders the toast store in the bottom-left corner, clear of the order drawer and its buttons on
 * the right; announced politely to screen readers.
 */
export function Toaster() {
  const t = useT();
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  return (
    <Portal>
      <Stack gap="xs" pos="fixed" bottom={16} left={16} w={360} maw="calc(100vw - 32px)" style={{ zIndex: 400 }} role="status" aria-live="polite">
        {toasts.map((toast) => (
          <Notification
            key={toast.id}
            data-testid="toast"
            color={tone[toast.tone].color}
            icon={tone[toast.tone].icon}
            title={toast.title(t)}
            withBorder
            onClose={() => dismiss(toast.id)}
            closeButtonProps={{ 'aria-label': t('toast.close') }}
            style={{ boxShadow: 'var(--mantine-shadow-md)' }}
            // A message of several lines (one order a line) keeps its lines.
            styles={{ description: { whiteSpace: 'pre-line' } }}
          >
            {toast.message?.(t)}
          </Notification>
        ))}
      </Stack>
    </Portal>
  );
}
