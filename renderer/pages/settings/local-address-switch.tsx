import { Switch } from '@mantine/core';
import { useState } from 'react';
import type { PlainMessageKey } from '../../i18n/types';
import { useT } from '../../i18n/use-t';
import { useSettingsStore } from '../../stores/settings-store';
import { toastFailure } from './use-feedback';
import { CodeText } from '../../components/code-text';

/** Preferences that let ShipDesk reach this computer and the local network (all off by default). */
type LocalAddressPreference = 'allowLocalDownloads' | 'allowLocalWebhooks';

/** Whether uploads' file.url, or webhooks, may reach this computer and the local network; the hint says what the switch's state means. */
export function LocalAddressSwitch({ preference, label, hint, testId }: { preference: LocalAddressPreference; label: PlainMessageKey; hint: { on: PlainMessageKey; off: PlainMessageKey }; testId: string }) {
  const t = useT();
  const allowed = useSettingsStore((s) => s.settings?.preferences[preference] ?? false);
  const [pending, setPending] = useState<boolean | undefined>(undefined);
  const toggle = async (next: boolean) => {
    setPending(next);
    const result = await useSettingsStore.getState().savePreferences({ [preference]: next });
    setPending(undefined);
    if (!result.ok) toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };
  return (
    <Switch
      label={t(label)}
      description={<CodeText text={t((pending ?? allowed) ? hint.on : hint.off)} />}
      checked={pending ?? allowed}
      disabled={pending !== undefined}
      onChange={(e) => void toggle(e.currentTarget.checked)}
      data-testid={testId}
    />
  );
}
