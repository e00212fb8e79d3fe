import { Alert, Button, Group, Loader, Radio, Stack, Text } from '@mantine/core';
import { IconAlert, IconCheck, IconRefresh } from '../../components/icons';
import { errorHint, errorTitle, fieldMessage } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useImportStore } from '../../stores/import-store';
import { saidByBanner } from '../../stores/storage-store';
import { isAlreadyImported } from './import-logic';
import { RowResultsTable } from './row-results-table';
import { StepButtons } from './step-buttons';

/** Step 4: the dry run — every order checked, the failed ones listed; nothing is created yet. Then where the orders go. */
export function CheckStep() {
  const t = useT();
  const checking = useImportStore((s) => s.checking);
  const dry = useImportStore((s) => s.dryRun);
  const error = useImportStore((s) => s.checkError);
  const target = useImportStore((s) => s.target);
  const createdBefore = useImportStore((s) => s.createdBefore);
  const skipped = dry && createdBefore ? dry.resultItems.filter((i) => isAlreadyImported(i, createdBefore)).length : 0;
  const errors = dry ? dry.resultItems.filter((i) => !createdBefore || !isAlreadyImported(i, createdBefore)) : [];
  const ready = dry ? dry.valid : 0;

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (dry && ready > 0) void useImportStore.getState().start();
      }}
    >
      <Stack gap="sm">
        {checking && (
          <Group gap="xs" data-testid="import-checking">
            <Loader size="xs" />
            <Text>{t('import.check.running')}</Text>
          </Group>
        )}
        {error && (
          <Alert color="red" variant="light" icon={<IconAlert size={18} />} title={saidByBanner(error) ? t('import.check.failed') : `${t('import.check.failed')}: ${errorTitle(error, t)}`} role="alert" data-testid="import-check-error">
            {!saidByBanner(error) && <Text size="sm">{errorHint(error, t)}</Text>}
            {error.errors?.map((e, i) => (
              <Text key={i} size="xs">
                {e.field}: {fieldMessage(e, t)}
              </Text>
            ))}
          </Alert>
        )}
        {dry && (
          <>
            <Alert
              color={errors.length ? 'orange' : 'green'}
              variant="light"
              icon={errors.length ? <IconAlert size={18} /> : <IconCheck size={18} />}
              title={t('import.check.summary', { orders: dry.orders, valid: dry.valid, failed: errors.length })}
              data-testid="import-dry-summary"
              role="status"
            >
              <Text size="sm">{errors.length ? t('import.check.errorsHint') : t('import.check.allGood')}</Text>
              {skipped > 0 && <Text size="sm">{t('import.check.skipped', { n: skipped })}</Text>}
            </Alert>
            {errors.length > 0 && <RowResultsTable items={errors} testId="import-dry-errors" />}
            <Radio.Group label={t('import.target.label')} value={target} onChange={(v) => useImportStore.getState().setTarget(v === 'drafts' ? 'drafts' : 'orders')}>
              <Stack gap={6} mt={6}>
                <Radio value="orders" label={t('import.target.orders')} data-testid="import-target-orders" />
                <Radio value="drafts" label={t('import.target.drafts')} data-testid="import-target-drafts" />
              </Stack>
            </Radio.Group>
          </>
        )}
        <StepButtons
          back="columns"
          nextLabel={target === 'drafts' ? t('import.runDrafts', { n: ready }) : t('import.run', { n: ready })}
          nextDisabled={!dry || ready === 0 || checking}
          extra={
            <Button variant="default" leftSection={<IconRefresh size={14} />} onClick={() => void useImportStore.getState().check()} disabled={checking}>
              {t('import.check.again')}
            </Button>
          }
        />
      </Stack>
    </form>
  );
}
