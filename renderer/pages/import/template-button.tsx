import { Button } from '@mantine/core';
import { useState } from 'react';
import { IconFileImport } from '../../components/icons';
import { errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useToastStore } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import { downloadBase64 } from '../orders/download-file';

/** Downloads our own order template: a workbook the wizard maps without a question. */
export function TemplateButton() {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    const result = await getTransport().invoke('import.template', {});
    setBusy(false);
    if (result.ok) downloadBase64(result.value.fileName, result.value.base64);
    else {
      const error = result.error;
      useToastStore.getState().push({ tone: 'error', title: (tt) => `${tt('import.template.failed')}: ${errorTitle(error, tt)}`, message: () => error.description ?? '' });
    }
  };
  return (
    <Button size="xs" variant="subtle" leftSection={<IconFileImport size={14} />} loading={busy} onClick={() => void download()} data-testid="import-template">
      {t('import.template.download')}
    </Button>
  );
}
