import { Button } from '@mantine/core';
import type { MessageRef } from '../../../shared/messages';
import { useT } from '../../i18n/use-t';
import { useNavigationStore } from '../../stores/navigation-store';
import { useSessionStore } from '../../stores/session-store';

/**
 * Whether an outbox error is a service refusing the connection's login, password or key (the outbox keys it so,
 * electron/core/outbox/outbox.ts): its orders will not go out by themselves, the connection needs fixing.
 */
export const credentialsRefused = (ref: MessageRef | null | undefined): boolean => ref?.key === 'outbox.credentialsRefused';

/** Opens the settings, where the connection is fixed; not offered to a packer, who cannot open them. */
export function OpenSettingsButton() {
  const t = useT();
  const role = useSessionStore((s) => s.identity?.role);
  const go = useNavigationStore((s) => s.go);
  if (role === 'packer') return null;
  return (
    <Button size="xs" variant="light" color="red" onClick={() => go('settings')} data-testid="open-connection-settings" style={{ alignSelf: 'flex-start' }}>
      {t('activity.outbox.openSettings')}
    </Button>
  );
}
