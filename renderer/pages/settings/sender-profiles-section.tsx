import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { SenderProfile } from '../../../shared/schemas/settings';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IconPlus } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useSettingsStore } from '../../stores/settings-store';
import { SectionCard } from './section-card';
import { SenderProfileDialog } from './sender-profile-dialog';
import { toastFailure, toastSuccess } from './use-feedback';

const text = (s: Record<string, unknown>, key: string) => (typeof s[key] === 'string' ? (s[key] as string) : '');

/** Sender profiles: the addresses the shop ships from; one is the default of new orders. */
export function SenderProfilesSection() {
  const t = useT();
  const profiles = useSettingsStore((s) => s.settings?.senderProfiles ?? []);
  const [editing, setEditing] = useState<SenderProfile | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SenderProfile | null>(null);
  const [busy, setBusy] = useState(false);

  const makeDefault = async (profile: SenderProfile) => {
    const result = await useSettingsStore.getState().updateProfile({ id: profile.id, isDefault: true });
    if (result.ok) toastSuccess((tr) => tr('settings.senders.defaultChanged', { name: profile.name }));
    else toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    const result = await useSettingsStore.getState().deleteProfile(deleting.id);
    setBusy(false);
    setDeleting(null);
    if (result.ok) toastSuccess((tr) => tr('settings.senders.deleted'));
    else toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };

  return (
    <SectionCard
      title={t('settings.senders.title')}
      hint={t('settings.senders.hint')}
      testId="senders-section"
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="sender-add">
          {t('settings.senders.add')}
        </Button>
      }
    >
      {profiles.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="senders-empty">
          {t('settings.senders.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" highlightOnHover data-testid="senders-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.senders.profileName')}</Table.Th>
                <Table.Th>{t('settings.senders.contactName')}</Table.Th>
                <Table.Th>{t('settings.senders.phone')}</Table.Th>
                <Table.Th>{t('settings.senders.addressString')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {profiles.map((p) => (
                <Table.Tr key={p.id} data-testid="sender-row" data-default={p.isDefault || undefined}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" fw={500}>
                        {p.name}
                      </Text>
                      {p.isDefault && (
                        <Badge size="sm" variant="light" style={{ flexShrink: 0, minWidth: 'max-content' }} data-testid="sender-default">
                          {t('settings.default')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{text(p.sender, 'contactName')}</Table.Td>
                  <Table.Td>{text(p.sender, 'phone')}</Table.Td>
                  <Table.Td>{[text(p.sender, 'city'), text(p.sender, 'addressString')].filter(Boolean).join(', ')}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {!p.isDefault && (
                        <Button size="compact-sm" variant="subtle" onClick={() => void makeDefault(p)} data-testid="sender-make-default">
                          {t('settings.senders.makeDefault')}
                        </Button>
                      )}
                      <Button size="compact-sm" variant="subtle" onClick={() => setEditing(p)} data-testid="sender-edit">
                        {t('settings.edit')}
                      </Button>
                      <Button size="compact-sm" variant="subtle" color="red" onClick={() => setDeleting(p)} data-testid="sender-delete">
                        {t('settings.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing && <SenderProfileDialog profile={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settings.senders.confirmTitle')}
        body={t('settings.senders.confirmBody', { name: deleting?.name ?? '' })}
        confirmLabel={t('settings.delete')}
        keepLabel={t('settings.keep')}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
        testId="sender-delete-dialog"
      />
    </SectionCard>
  );
}
