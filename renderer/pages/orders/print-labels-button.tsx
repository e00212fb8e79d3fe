import { Button, type ButtonProps } from '@mantine/core';
import { useState } from 'react';
import { IconPrinter } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { printLabels } from './print-files';

/** "Печать этикеток" for the given orders, in their order; the format is the one Settings → Печать holds. */
export function PrintLabelsButton({ orderIds, testId, ...button }: { orderIds: () => string[]; testId: string } & Omit<ButtonProps, 'onClick' | 'loading'>) {
  const t = useT();
  const [printing, setPrinting] = useState(false);
  const print = async () => {
    setPrinting(true);
    try {
      await printLabels(orderIds());
    } finally {
      setPrinting(false);
    }
  };
  return (
    <Button leftSection={<IconPrinter size={16} />} {...button} loading={printing} onClick={() => void print()} data-testid={testId}>
      {t('print.labels')}
    </Button>
  );
}
