import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { IconAlert, IconCheck, IconRefresh, IconX } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import type { Translate } from '../../i18n/types';
import { useT } from '../../i18n/use-t';
import { useImportStore, type RunState } from '../../stores/import-store';
import { useNavigationStore } from '../../stores/navigation-store';
import { saidByBanner, useStorageStore } from '../../stores/storage-store';
import { toastRefusal, useToastStore } from '../../stores/toast-store';
import { downloadBase64 } from '../orders/download-file';
import { isAlreadyImported, isFailed } from './import-logic';
import { RowResultsTable } from './row-results-table';

const ended = (run: RunState) => run.status === 'done' || run.status === 'failed' || run.status === 'canceled';

function progressText(run: RunState, t: Translate): string {
  if (run.status === 'reading') return t('import.progress.reading', { done: run.done, total: Math.max(run.total, run.done) });
  if (run.status === 'creating' || run.status === 'registering') {
    return t(run.target === 'drafts' ? 'import.progress.creatingDrafts' : 'import.progress.creating', { done: run.done, total: run.total });
  }
  return t('import.progress.queued');
}

/** Step 5: the import under way (progress, cancel), then its result table and what to do next. */
export function RunStep() {
  const t = useT();
  const run = useImportStore((s) => s.run);
  const createdBefore = useImportStore((s) => s.createdBefore);
  if (!run) return null;
  const percent = run.total > 0 ? Math.round((run.done / run.total) * 100) : 0;
  // reading is the first half of the bar, creating the second
  const value = run.status === 'reading' ? percent / 2 : run.status === 'creating' || run.status === 'registering' ? 50 + percent / 2 : ended(run) ? 100 : 0;

  if (!ended(run)) {
    return (
      <Stack gap="sm" data-testid="import-running">
        <Text aria-live="polite" data-testid="import-progress-text">
          {progressText(run, t)}
        </Text>
        <Progress value={value} size="lg" animated aria-label={t('import.progress.label')} data-testid="import-progress" />
        <Group>
          <Button color="red" variant="light" leftSection={<IconX size={14} />} loading={run.canceling} onClick={() => void useImportStore.getState().cancel()} data-testid="import-cancel" autoFocus>
            {run.canceling ? t('import.canceling') : t('import.cancel')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return <RunResult run={run} createdBefore={createdBefore} />;
}

function RunResult({ run, createdBefore }: { run: RunState; createdBefore: ReadonlySet<string> | undefined }) {
  const t = useT();
  // a storage error is the banner's to say, but only while it says it: a run that failed in the background met the
  // disk without any command of this window failing, so no banner is up
  const bannerUp = useStorageStore((s) => s.failure !== null);
  const [saving, setSaving] = useState(false);
  const already = createdBefore ? run.items.filter((i) => isAlreadyImported(i, createdBefore)).length : 0;
  const failed = run.items.filter((i) => isFailed(i)).length - already;
  const created = run.items.length - failed - already;
  const drafts = run.target === 'drafts';
  const summary =
    run.status === 'canceled'
      ? t('import.result.canceled', { created, failed })
      : t(drafts ? 'import.result.doneDrafts' : 'import.result.done', { created, failed });

  const saveErrors = async () => {
    setSaving(true);
    const result = await useImportStore.getState().errorsFile();
    setSaving(false);
    if (!result.ok) {
      const error = result.error;
      toastRefusal(error, { title: (tt) => `${tt('import.result.downloadFailed')}: ${errorTitle(error, tt)}`, message: (tt) => errorHint(error, tt) ?? '' });
      return;
    }
    if (!result.base64) {
      useToastStore.getState().push({ tone: 'info', title: (tt) => tt('import.result.noErrorsFile') });
      return;
    }
    downloadBase64(result.fileName, result.base64);
  };

  return (
    <Stack gap="sm" data-testid="import-result">
      {run.status === 'failed' && run.error ? (
        <Alert color="red" variant="light" icon={<IconAlert size={18} />} title={t('import.result.failed')} role="alert" data-testid="import-run-error">
          {!(saidByBanner(run.error) && bannerUp) && <Text size="sm">{errorHint(run.error, t) ?? errorTitle(run.error, t)}</Text>}
        </Alert>
      ) : (
        <Alert color={failed ? 'orange' : 'green'} variant="light" icon={failed ? <IconAlert size={18} /> : <IconCheck size={18} />} title={summary} role="status" data-testid="import-result-summary">
          {already > 0 && <Text size="sm">{t('import.check.skipped', { n: already })}</Text>}
        </Alert>
      )}
      <Group gap="xs">
        {failed > 0 && (
          <>
            <Button variant="light" onClick={() => void saveErrors()} loading={saving} title={t('import.result.saveErrorsHint')} data-testid="import-save-errors">
              {t('import.result.saveErrors')}
            </Button>
            <Button variant="light" leftSection={<IconRefresh size={14} />} onClick={() => useImportStore.getState().reimportFailed()} data-testid="import-reimport">
              {t('import.result.reimport')}
            </Button>
          </>
        )}
        {created > 0 && (
          <Button variant="default" onClick={() => useNavigationStore.getState().go(drafts ? 'drafts' : 'orders')} data-testid="import-open-list">
            {drafts ? t('import.result.openDrafts') : t('import.result.openOrders')}
          </Button>
        )}
      </Group>
      <RowResultsTable items={run.items} createdBefore={createdBefore} testId="import-results" />
    </Stack>
  );
}
