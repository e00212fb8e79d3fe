import { Button, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import type { Identity } from '../../shared/roles';
import type { Translate } from '../i18n/types';
import { useFormat, useT } from '../i18n/use-t';
import { useSessionStore } from '../stores/session-store';

/** "ООО Ромашка · Упаковщик: Анна": who the window is signed in as, in one line. */
export function describeIdentity(identity: Identity, t: Translate): string {
  const role = t(identity.role === 'owner' ? 'access.role.owner' : 'access.role.packer');
  return identity.userName
    ? t('access.header.whoNamed', { shop: identity.companyName, role, name: identity.userName })
    : t('access.header.who', { shop: identity.companyName, role });
}

/** The header's "who is signed in": shop and role always; in browser mode a menu with the session's end and Sign out. */
export function IdentityMenu() {
  const t = useT();
  const format = useFormat();
  const identity = useSessionStore((s) => s.identity);
  const kind = useSessionStore((s) => s.transportKind);
  const [leaving, setLeaving] = useState(false);
  if (!identity) return null;
  const who = describeIdentity(identity, t);
  const label = (
    <Text fz="sm" fw={500} truncate maw={280} data-testid="identity" data-role={identity.role}>
      {who}
    </Text>
  );
  // The desktop window is the owner for as long as it is open: there is nothing to sign out of.
  if (kind !== 'http') return label;
  return (
    <Menu position="bottom-end" withArrow shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={`${t('access.header.signedInAs')} ${who}`} data-testid="identity-button">
          {label}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown miw={240}>
        <Menu.Label>{t('access.header.signedInAs')}</Menu.Label>
        <Group px="sm" pb={6}>
          <Text fz="sm">{who}</Text>
        </Group>
        {identity.expiresAt !== null && (
          <Text px="sm" pb={6} fz="xs" c="dimmed">
            {t('access.header.until', { time: format.dateTime(new Date(identity.expiresAt).toISOString()) })}
          </Text>
        )}
        <Menu.Divider />
        <Group px="xs" py={4}>
          <Button
            variant="subtle"
            color="red"
            size="xs"
            fullWidth
            loading={leaving}
            onClick={() => {
              setLeaving(true);
              void useSessionStore.getState().signOut();
            }}
            data-testid="sign-out"
          >
            {t('access.header.signOut')}
          </Button>
        </Group>
      </Menu.Dropdown>
    </Menu>
  );
}
