import { Alert } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useStorageStore } from '../stores/storage-store';
import { IconAlert } from './icons';

/**
 * Above every page while the disk of the data folder is full, or the database file is gone from under the app:
 * what happened, that nothing saved before was lost, what to do.
 */
export function StorageBanner() {
  const t = useT();
  const full = useStorageStore((s) => s.failedCommand !== null);
  const gone = useStorageStore((s) => s.databaseGone);
  if (!full) return null;
  const why = gone ? 'storage.gone' : 'storage.full';
  return (
    <Alert color="red" variant="filled" radius={0} icon={<IconAlert size={18} />} title={t(`${why}.title`)} role="alert" data-testid="storage-full">
      {t(`${why}.body`)}
    </Alert>
  );
}
