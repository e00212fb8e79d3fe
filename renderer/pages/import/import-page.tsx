import { Box, Button, Group, Stack, Stepper, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import type { ImportProgressEvent } from '../../../shared/contract/import';
import { usePushEvent } from '../../components/use-push-event';
import { useT } from '../../i18n/use-t';
import { importSteps, useImportStore, type ImportStep } from '../../stores/import-store';
import { useProvidersStore } from '../../stores/providers-store';
import { CheckStep } from './check-step';
import { ColumnsStep } from './columns-step';
import { FileStep } from './file-step';
import { PreviewStep } from './preview-step';
import { RunStep } from './run-step';

const stepLabels = {
  file: 'import.step.file',
  preview: 'import.step.preview',
  columns: 'import.step.columns',
  check: 'import.step.check',
  import: 'import.step.import',
} as const;

/** The import wizard: file → preview → columns → check (dry run) → import with progress and results. */
export function ImportPage() {
  const t = useT();
  const step = useImportStore((s) => s.step);
  const hasPreview = useImportStore((s) => s.preview !== undefined);
  const running = useImportStore((s) => s.run !== undefined);
  const busy = useImportStore((s) => s.run !== undefined && !['done', 'failed', 'canceled'].includes(s.run.status));
  const active = importSteps.indexOf(step);

  useEffect(() => {
    void useImportStore.getState().init();
    // An import that went on (or ended) while another page was shown: catch up with it.
    void useImportStore.getState().refreshResults();
    void useProvidersStore.getState().load();
  }, []);

  usePushEvent(['import.progress'], (event) => {
    if (event.type === 'reconnected') void useImportStore.getState().refreshResults();
    else useImportStore.getState().progress(event as unknown as ImportProgressEvent);
  });

  // A step can be revisited by its header only while nothing is running, and only once a file is open.
  const reachable = (s: ImportStep) => !running && (s === 'file' || (hasPreview && s !== 'import'));

  return (
    <Box p="md" data-testid="import-page" style={{ overflow: 'auto', height: 'calc(100dvh - var(--app-shell-header-offset, 48px))' }}>
      <Stack gap="sm" maw={1200}>
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('import.title')}
          </Title>
          {step !== 'file' && !busy && (
            <Button variant="subtle" size="xs" onClick={() => useImportStore.getState().reset()} data-testid="import-start-over">
              {t('import.startOver')}
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('import.hint')}
        </Text>
        <Stepper
          active={active}
          size="sm"
          onStepClick={(i) => reachable(importSteps[i]) && useImportStore.getState().go(importSteps[i])}
          allowNextStepsSelect={false}
        >
          {importSteps.map((s) => (
            <Stepper.Step key={s} label={t(stepLabels[s])} allowStepSelect={reachable(s)} data-testid={`import-step-${s}`} />
          ))}
        </Stepper>
        {step === 'file' && <FileStep />}
        {step === 'preview' && <PreviewStep />}
        {step === 'columns' && <ColumnsStep />}
        {step === 'check' && <CheckStep />}
        {step === 'import' && <RunStep />}
      </Stack>
    </Box>
  );
}
