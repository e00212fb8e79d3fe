import { Button } from '@mantine/core';
import { useState } from 'react';
import { useT } from '../../i18n/use-t';
import { getTransport } from '../../transport/current';
import { downloadBase64 } from '../orders/download-file';
import { toastFailure, toastSuccess } from './use-feedback';

/** Zips the last days' log files and hands them to the user, to attach to a support request. */
export function SupportLogsButton() {
  const t = useT();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    const result = await getTransport().invoke('logs.saveForSupport', {});
    setSaving(false);
    if (!result.ok) return toastFailure((tr) => tr('settings.logs.failed'), result.error);
    downloadBase64(result.value.fileName, result.value.base64, 'application/zip');
    toastSuccess((tr) => tr('settings.logs.saved', { name: result.value.fileName }));
  };
  return (
    <Button variant="default" onClick={() => void save()} loading={saving} data-testid="save-support-logs">
      {t('settings.logs.save')}
    </Button>
  );
}
