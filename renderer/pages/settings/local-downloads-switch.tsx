import { Switch } from '@mantine/core';
import { useState } from 'react';
import { useT } from '../../i18n/use-t';
import { useSettingsStore } from '../../stores/settings-store';
import { toastFailure } from './use-feedback';

/** Whether an upload's file.url may point to this computer or the local network (off by default). */
export function LocalDownloadsSwitch() {
  const t = useT();
  const allowed = useSettingsStore((s) => s.settings?.preferences.allowLocalDownloads ?? false);
  const [pending, setPending] = useState<boolean | undefined>(undefined);
  const toggle = async (next: boolean) => {
    setPending(next);
    const result = await useSettingsStore.getState().savePreferences({ allowLocalDownloads: next });
    setPending(undefined);
    if (!result.ok) toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };
  return (
    <Switch
      label={t('settings.api.localDownloads')}
      description={t('settings.api.localDownloadsHint')}
      checked={pending ?? allowed}
      disabled={pending !== undefined}
      onChange={(e) => void toggle(e.currentTarget.checked)}
      data-testid="api-local-downloads"
    />
  );
}
