import { Alert, Badge, Button, Group, Loader, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { Connection } from '../../../shared/contract/connections';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IconInfo, IconPlus } from '../../components/icons';
import { useLanguage, useT } from '../../i18n/use-t';
import { useNavigationStore, type SettingsFocus } from '../../stores/navigation-store';
import { useSettingsStore } from '../../stores/settings-store';
import { ConnectionDialog } from './connection-dialog';
import { ConnectionTestResult, noShrink } from './connection-test-result';
import { SectionCard } from './section-card';
import { toastFailure, toastSuccess } from './use-feedback';

/** Delivery-service accounts: what is connected, a check of each, and where their secrets are kept. */
export function ConnectionsSection() {
  const t = useT();
  const connections = useSettingsStore((s) => s.connections);
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const [busy, setBusy] = useState(false);
  const focusedId = focusedConnection(connections, useNavigationStore((s) => s.settingsFocus?.connection));

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    const result = await useSettingsStore.getState().deleteConnection(deleting.id);
    setBusy(false);
    setDeleting(null);
    if (result.ok) toastSuccess((tr) => tr('settings.connections.deleted'));
    else toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };

  return (
    <SectionCard
      title={t('settings.connections.title')}
      hint={t('settings.connections.hint')}
      testId="connections-section"
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="connection-add">
          {t('settings.connections.add')}
        </Button>
      }
    >
      <SecretStorageNote />
      {connections.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="connections-empty">
          {t('settings.connections.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={680}>
          <Table verticalSpacing="xs" data-testid="connections-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.connections.col.service')}</Table.Th>
                <Table.Th>{t('settings.connections.col.name')}</Table.Th>
                <Table.Th>{t('settings.connections.col.account')}</Table.Th>
                <Table.Th>{t('settings.connections.col.check')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('settings.connections.col.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {connections.map((c) => (
                <ConnectionRow key={c.id} connection={c} focused={c.id === focusedId} onEdit={() => setEditing(c)} onDelete={() => setDeleting(c)} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing && <ConnectionDialog connection={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settings.connections.confirmTitle')}
        body={t('settings.connections.confirmBody', { name: deleting?.name ?? '' })}
        confirmLabel={t('settings.delete')}
        keepLabel={t('settings.keep')}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
        testId="connection-delete-dialog"
      />
    </SectionCard>
  );
}

/** The connection a way here names: by id, else the service's default one, else its first. */
function focusedConnection(connections: readonly Connection[], wanted: SettingsFocus['connection']): number | undefined {
  if (!wanted) return undefined;
  const ofService = connections.filter((c) => c.providerKey === wanted.providerKey);
  return (connections.find((c) => c.id === wanted.id) ?? ofService.find((c) => c.isDefault) ?? ofService[0])?.id;
}

function ConnectionRow({ connection: c, focused, onEdit, onDelete }: { connection: Connection; focused: boolean; onEdit: () => void; onDelete: () => void }) {
  const row = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (focused) row.current?.scrollIntoView({ block: 'center' });
  }, [focused]);
  const t = useT();
  const test = useSettingsStore((s) => s.tests[c.id]);
  const kinds = useSettingsStore((s) => s.kinds);
  const language = useLanguage();
  const testing = useSettingsStore((s) => s.testing[c.id] ?? false);
  const account = !c.credentialsReadable
    ? t('settings.connections.unreadable')
    : c.clientIdHint ?? (c.testMode && !c.credentialsStored ? t('settings.connections.publicTestAccount') : '—');
  return (
    <Table.Tr
      ref={row}
      data-testid="connection-row"
      data-connection-id={c.id}
      data-focused={focused || undefined}
      aria-current={focused || undefined}
      style={focused ? { background: 'var(--mantine-color-red-light)', boxShadow: 'inset 3px 0 0 var(--mantine-color-red-filled)' } : undefined}
    >
      <Table.Td>
        <Stack gap={4} align="flex-start">
          <Text size="sm" fw={500}>
            {kinds.find((k) => k.key === c.providerKey)?.names[language] ?? c.providerKey}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Badge size="sm" variant="outline" color={c.testMode ? 'orange' : 'green'} style={noShrink}>
              {t(c.testMode ? 'settings.connections.testMode' : 'settings.connections.live')}
            </Badge>
            {c.isDefault && (
              <Badge size="sm" variant="light" style={noShrink}>
                {t('settings.default')}
              </Badge>
            )}
          </Group>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{c.name}</Text>
        {c.baseUrl && (
          <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {c.baseUrl}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff={c.clientIdHint ? 'monospace' : undefined} c={c.credentialsReadable ? undefined : 'red'}>
          {account}
        </Text>
      </Table.Td>
      <Table.Td miw={200} maw={300}>{testing ? <Loader size="xs" /> : <ConnectionTestResult result={test} />}</Table.Td>
      <Table.Td>
        {/* Stacked so the row fits beside a long check message in either language. */}
        <Stack gap={4} align="flex-end">
          <Button size="compact-sm" variant="light" loading={testing} onClick={() => void useSettingsStore.getState().testConnection(c.id)} data-testid="connection-test">
            {t('settings.connections.test')}
          </Button>
          <Group gap={4} wrap="nowrap">
            <Button size="compact-sm" variant="subtle" onClick={onEdit} data-testid="connection-edit">
              {t('settings.edit')}
            </Button>
            <Button size="compact-sm" variant="subtle" color="red" onClick={onDelete} data-testid="connection-delete">
              {t('settings.delete')}
            </Button>
          </Group>
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/** Where the credentials are kept, said plainly (browser mode has no keychain). */
function SecretStorageNote() {
  const t = useT();
  const storage = useSettingsStore((s) => s.environment?.secretStorage);
  const text =
    storage?.kind === 'os-keychain'
      ? t('settings.connections.storage.keychain')
      : storage?.kind === 'key-file'
        ? t('settings.connections.storage.keyFile', { file: storage.location ?? 'secrets.key' })
        : t('settings.connections.storage.other');
  return (
    <Alert variant="light" color={storage?.kind === 'key-file' ? 'yellow' : 'blue'} icon={<IconInfo size={18} />} p="sm" data-testid="secret-storage-note" data-kind={storage?.kind ?? 'unknown'}>
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {text}
      </Text>
    </Alert>
  );
}
