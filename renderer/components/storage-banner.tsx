import { Alert } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useStorageStore } from '../stores/storage-store';
import { IconAlert } from './icons';

/** Above every page while the disk of the data folder is full: what happened, that nothing was lost, what to do. */
export function StorageBanner() {
  const t = useT();
  const full = useStorageStore((s) => s.failedCommand !== null);
  if (!full) return null;
  return (
    <Alert color="red" variant="filled" radius={0} icon={<IconAlert size={18} />} title={t('storage.full.title')} role="alert" data-testid="storage-full">
      {t('storage.full.body')}
    </Alert>
  );
}
