import { Button } from '@mantine/core';
import { useState } from 'react';
import { IconFileImport } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { toastRefusal } from '../../stores/toast-store';
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
      toastRefusal(error, { title: (tt) => `${tt('import.template.failed')}: ${errorTitle(error, tt)}`, message: (tt) => errorHint(error, tt) ?? '' });
    }
  };
  return (
    <Button size="xs" variant="subtle" leftSection={<IconFileImport size={14} />} loading={busy} onClick={() => void download()} data-testid="import-template">
      {t('import.template.download')}
    </Button>
  );
}
