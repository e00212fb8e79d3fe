import { Button, Group, Modal, Text } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useSessionStore } from '../stores/session-store';
import { describeIdentity } from './identity-menu';

/**
 * A link brought another session than the one this window uses: ask, never switch silently. Keeping the
 * current one is the default (focus, Escape), so a stray click on a crafted link changes nothing.
 */
export function SessionLinkPrompt() {
  const t = useT();
  const offered = useSessionStore((s) => s.offeredSession);
  const identity = useSessionStore((s) => s.identity);
  const keep = () => useSessionStore.getState().setOfferedSession(undefined);
  const who = identity ? describeIdentity(identity, t) : t('access.link.unknown');
  return (
    <Modal opened={offered !== undefined} onClose={keep} title={t('access.link.title')} centered size="md" zIndex={500} data-testid="session-link-prompt" closeOnEscape trapFocus>
      <Text fz="sm">{t('access.link.body', { who })}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button onClick={keep} data-autofocus data-testid="session-link-keep">
          {t('access.link.keep')}
        </Button>
        <Button variant="default" onClick={() => useSessionStore.getState().acceptOfferedSession()} data-testid="session-link-switch">
          {t('access.link.switch')}
        </Button>
      </Group>
    </Modal>
  );
}
