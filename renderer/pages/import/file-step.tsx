import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useRef, useState, type DragEvent } from 'react';
import { IconAlert, IconFileImport } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useImportStore, type FileRefusal } from '../../stores/import-store';
import { saidByBanner } from '../../stores/storage-store';
import { maxWorkbookBytes } from '../../../shared/contract/import';
import { fileProblemMessage, fileSize } from './import-logic';
import type { Translate } from '../../i18n/types';
import { TemplateButton } from './template-button';

/**
 * Step 1: choose the workbook. A file input (it opens the system's file dialog, in Electron as well: the
 * shell's bridge has no dialog of its own) and a drop zone.
 */
export function FileStep() {
  const t = useT();
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const reading = useImportStore((s) => s.reading);
  const refusal = useImportStore((s) => s.refusal);
  const createdBefore = useImportStore((s) => s.createdBefore);
  const open = (file: File | undefined) => file && void useImportStore.getState().openFile(file, maxWorkbookBytes);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    open(e.dataTransfer.files[0]);
  };

  return (
    <Stack gap="sm">
      {createdBefore && (
        <Alert color="blue" variant="light" title={t('import.reimport.title')} data-testid="import-reimport-note">
          <Stack gap={6} align="flex-start">
            <Text size="sm">{t('import.reimport.body', { created: createdBefore.size })}</Text>
            <Button size="xs" variant="subtle" onClick={() => useImportStore.getState().reset()}>
              {t('import.reimport.cancel')}
            </Button>
          </Stack>
        </Alert>
      )}
      <Paper
        withBorder
        p="xl"
        radius="md"
        data-testid="import-dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        style={{ borderStyle: 'dashed', borderWidth: 2, background: over ? 'var(--mantine-color-blue-light)' : undefined, textAlign: 'center' }}
      >
        <Stack align="center" gap="xs">
          <IconFileImport size={36} />
          {reading ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text>{t('import.file.reading', { name: reading })}</Text>
            </Group>
          ) : (
            <>
              <Text fw={600}>{t('import.file.drop')}</Text>
              <Text size="sm" c="dimmed">
                {t('import.file.or')}
              </Text>
              <Button autoFocus onClick={() => inputRef.current?.click()} data-testid="import-choose-file">
                {t('import.file.choose')}
              </Button>
            </>
          )}
          <Text size="xs" c="dimmed">
            {t('import.file.limit', { mb: maxWorkbookBytes / 1024 / 1024 })}
          </Text>
          <TemplateButton />
          <input
            ref={inputRef}
            type="file"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            hidden
            data-testid="import-file-input"
            aria-label={t('import.file.choose')}
            onChange={(e) => {
              open(e.currentTarget.files?.[0]);
              e.currentTarget.value = ''; // the same file again (after fixing it) must fire a change
            }}
          />
        </Stack>
      </Paper>
      {refusal && !('error' in refusal && saidByBanner(refusal.error)) && <Refusal refusal={refusal} />}
    </Stack>
  );
}

function refusalText(refusal: FileRefusal, t: Translate): { title: string; body: string; details?: string } {
  if ('local' in refusal) {
    if (refusal.local === 'tooLarge') return { title: t('import.file.refused'), body: t('import.file.tooLarge', { size: fileSize(refusal.size ?? 0), mb: Math.floor((refusal.limit ?? 0) / 1024 / 1024) }) };
    return { title: t('import.file.refused'), body: t(refusal.local === 'empty' ? 'import.file.empty' : 'import.file.readFailed') };
  }
  const { error } = refusal;
  const reason = fileProblemMessage(error, t);
  if (error.message === 'Bad file' || reason) return { title: t('import.file.refused'), body: reason ?? errorHint(error, t) ?? error.message, details: reason && reason !== error.description ? error.description : undefined };
  return { title: errorTitle(error, t), body: errorHint(error, t) ?? '' };
}

function Refusal({ refusal }: { refusal: FileRefusal }) {
  const t = useT();
  const { title, body, details } = refusalText(refusal, t);
  return (
    <Alert color="red" variant="light" icon={<IconAlert size={18} />} title={title} role="alert" data-testid="import-file-refused">
      <Text size="sm">{body}</Text>
      {details && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('import.problem.details', { text: details })}
        </Text>
      )}
    </Alert>
  );
}
