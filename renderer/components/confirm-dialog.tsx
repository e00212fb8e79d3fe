import { Button, Group, Modal, Text } from '@mantine/core';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  keepLabel: string;
  /** Shows a spinner on the confirm button while the action runs. */
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
}

/**
 * Asks before something that cannot be taken back. Focus starts on the harmless button, so a stray
 * Enter keeps things as they are; Escape closes.
 */
export function ConfirmDialog({ opened, title, body, confirmLabel, keepLabel, busy, onConfirm, onClose, testId }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="sm" zIndex={400} data-testid={testId} closeOnEscape trapFocus returnFocus>
      <Text fz="sm">{body}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={onClose} data-autofocus disabled={busy}>
          {keepLabel}
        </Button>
        <Button color="red" onClick={onConfirm} loading={busy} data-testid={testId ? `${testId}-confirm` : undefined}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
