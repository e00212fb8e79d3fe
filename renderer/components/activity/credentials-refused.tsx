import { Button } from '@mantine/core';
import type { MessageRef } from '../../../shared/messages';
import { useT } from '../../i18n/use-t';
import { useNavigationStore, type SettingsFocus } from '../../stores/navigation-store';
import { useSessionStore } from '../../stores/session-store';

/**
 * Whether an outbox error is a service refusing the connection's login, password or key (the outbox keys it so,
 * electron/core/outbox/outbox.ts): its orders will not go out by themselves, the connection needs fixing.
 */
export const credentialsRefused = (ref: MessageRef | null | undefined): boolean => ref?.key === 'outbox.credentialsRefused';

/**
 * Opens the settings at «Службы доставки» (the connections), where the connection is fixed (with `connection`, that one is marked);
 * not offered to a packer, who cannot open them.
 */
export function OpenSettingsButton({ connection }: { connection?: SettingsFocus['connection'] }) {
  const t = useT();
  const role = useSessionStore((s) => s.identity?.role);
  const openSettings = useNavigationStore((s) => s.openSettings);
  if (role === 'packer') return null;
  return (
    <Button
      size="xs"
      variant="light"
      color="red"
      onClick={() => openSettings({ tab: 'connections', connection })}
      data-testid="open-connection-settings"
      style={{ alignSelf: 'flex-start' }}
    >
      {t('activity.outbox.openSettings')}
    </Button>
  );
}
