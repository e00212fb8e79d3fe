import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconChevronLeft, IconChevronRight } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useImportStore, type ImportStep } from '../../stores/import-store';

/** Back / Next of a step. Next is the submit button of the step's form, so Enter in any box moves on. */
export function StepButtons({ back, nextLabel, nextDisabled, extra }: { back?: ImportStep; nextLabel?: string; nextDisabled?: boolean; extra?: ReactNode }) {
  const t = useT();
  return (
    <Group justify="space-between" mt="sm">
      {back ? (
        <Button variant="default" leftSection={<IconChevronLeft size={14} />} onClick={() => useImportStore.getState().go(back)} data-testid="import-back">
          {t('import.back')}
        </Button>
      ) : (
        <span />
      )}
      <Group gap="xs">
        {extra}
        <Button type="submit" rightSection={<IconChevronRight size={14} />} disabled={nextDisabled} data-testid="import-next">
          {nextLabel ?? t('import.next')}
        </Button>
      </Group>
    </Group>
  );
}
