import { Alert, Badge, Button, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import type { BackupFile } from '../../../shared/contract/settings';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IconAlert } from '../../components/icons';
import { useFormat, useLanguage, useT } from '../../i18n/use-t';
import { useSettingsStore } from '../../stores/settings-store';
import { CopyField } from './copy-field';
import { SectionCard } from './section-card';
import { SupportLogsButton } from './support-logs-button';
import { fileSize } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';

/** The data folder, backups made while the app runs, and restoring one at the next start. */
export function BackupsSection() {
  const t = useT();
  const dataDir = useSettingsStore((s) => s.settings?.dataDir ?? '');
  const backupsDir = useSettingsStore((s) => s.settings?.backupsDir ?? '');
  return (
    <Stack gap="md">
      <SectionCard title={t('settings.data.title')} hint={t('settings.data.hint')} testId="data-section" actions={<SupportLogsButton />}>
        <CopyField label={t('settings.data.folder')} value={dataDir} testId="data-folder" />
        <CopyField label={t('settings.data.backupsFolder')} value={backupsDir} testId="backups-folder" />
      </SectionCard>
      <BackupList />
    </Stack>
  );
}

function BackupList() {
  const t = useT();
  const format = useFormat();
  const language = useLanguage();
  const backups = useSettingsStore((s) => s.backups);
  const pending = useSettingsStore((s) => s.settings?.pendingRestore ?? null);
  const [making, setMaking] = useState(false);
  const [restoring, setRestoring] = useState<BackupFile | null>(null);
  const [busy, setBusy] = useState(false);

  const backupNow = async () => {
    setMaking(true);
    const result = await useSettingsStore.getState().backupNow();
    setMaking(false);
    if (result.ok) toastSuccess((tr) => tr('settings.backups.done', { name: result.value.name }));
    else toastFailure((tr) => tr('settings.backups.failed'), result.error);
  };

  const restore = async () => {
    if (!restoring) return;
    setBusy(true);
    const result = await useSettingsStore.getState().restore(restoring.name);
    setBusy(false);
    setRestoring(null);
    if (result.ok) toastSuccess((tr) => tr('settings.backups.staged'), (tr) => tr('settings.backups.restartRequired'));
    else toastFailure((tr) => tr('settings.backups.restoreFailed'), result.error);
  };

  const picker = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<{ file: string; percent: number } | null>(null);
  const uploadFile = async (file: File) => {
    setUploading({ file: file.name, percent: 0 });
    const result = await useSettingsStore.getState().uploadBackup(file, (sent) => setUploading({ file: file.name, percent: Math.round((100 * sent) / Math.max(file.size, 1)) }));
    setUploading(null);
    if (!result.ok) return toastFailure((tr) => tr('settings.backups.uploadFailed'), result.error);
    toastSuccess((tr) => tr('settings.backups.uploaded', { file: file.name }));
    setRestoring(result.value); // what the owner came for: restoring it, after one more confirmation
  };

  const cancelRestore = async () => {
    const result = await useSettingsStore.getState().cancelRestore();
    if (result.ok) toastSuccess((tr) => tr('settings.backups.restoreCanceled'));
    else toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };

  return (
    <SectionCard
      title={t('settings.backups.title')}
      testId="backups-section"
      actions={
        <Group gap="xs">
          <Button variant="default" onClick={() => picker.current?.click()} loading={uploading !== null} data-testid="backup-from-file">
            {t('settings.backups.fromFile')}
          </Button>
          <Button onClick={() => void backupNow()} loading={making} data-testid="backup-now">
            {t('settings.backups.now')}
          </Button>
          <input
            ref={picker}
            type="file"
            accept=".db,.sqlite,.sqlite3"
            hidden
            data-testid="backup-file-input"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = ''; // the same file may be picked again after a refusal
              if (file) void uploadFile(file);
            }}
          />
        </Group>
      }
    >
      {uploading && (
        <Stack gap={4} data-testid="backup-upload-progress">
          <Text size="sm">{t('settings.backups.uploading', { file: uploading.file, percent: uploading.percent })}</Text>
          <Progress value={uploading.percent} animated />
        </Stack>
      )}
      {pending && (
        <Alert color="orange" variant="light" icon={<IconAlert size={18} />} title={t('settings.backups.restartRequired')} data-testid="restore-pending">
          <Stack gap="xs" align="flex-start">
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {t('settings.backups.pending', { file: pending })}
            </Text>
            <Button size="xs" variant="default" onClick={() => void cancelRestore()} data-testid="restore-cancel">
              {t('settings.backups.cancelRestore')}
            </Button>
          </Stack>
        </Alert>
      )}
      {backups.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="backups-empty">
          {t('settings.backups.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" highlightOnHover data-testid="backups-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.backups.col.name')}</Table.Th>
                <Table.Th>{t('settings.backups.col.created')}</Table.Th>
                <Table.Th ta="right">{t('settings.backups.col.size')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {backups.map((b) => (
                <Table.Tr key={b.name} data-testid="backup-row">
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" ff="monospace">
                        {b.name}
                      </Text>
                      {b.kind !== 'backup' && (
                        <Badge size="sm" variant="light" color="gray">
                          {t(`settings.backups.kind.${b.kind}`)}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{format.dateTime(b.created)}</Table.Td>
                  <Table.Td ta="right">{fileSize(b.size, language)}</Table.Td>
                  <Table.Td ta="right">
                    <Button size="compact-sm" variant="subtle" onClick={() => setRestoring(b)} data-testid="backup-restore">
                      {t('settings.backups.restore')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDialog
        opened={restoring !== null}
        title={t('settings.backups.confirmTitle')}
        body={t('settings.backups.confirmBody', { name: restoring?.name ?? '' })}
        confirmLabel={t('settings.backups.confirm')}
        keepLabel={t('settings.keep')}
        busy={busy}
        onConfirm={() => void restore()}
        onClose={() => setRestoring(null)}
        testId="restore-dialog"
      />
    </SectionCard>
  );
}
