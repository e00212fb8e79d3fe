import { Alert } from '@mantine/core';
import { errorHint, errorTitle } from '../i18n/error-messages';
import { useT } from '../i18n/use-t';
import { isDatabaseGone, useStorageStore } from '../stores/storage-store';
import { IconAlert } from './icons';

/**
 * Above every page while the disk of the data folder is full, or the database file is gone from under the app:
 * what happened (the error's own headline, as its toast says it), that nothing saved before was lost, what to do
 * (a file gone: the core's own message, naming the file; a full disk: the banner's longer advice).
 */
export function StorageBanner() {
  const t = useT();
  const failure = useStorageStore((s) => s.failure);
  if (!failure) return null;
  const { error } = failure;
  return (
    <Alert color="red" variant="filled" radius={0} icon={<IconAlert size={18} />} title={errorTitle(error, t)} role="alert" data-testid="storage-full">
      {isDatabaseGone(error) ? errorHint(error, t) : t('storage.full.body')}
    </Alert>
  );
}
