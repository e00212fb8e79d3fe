import { Alert, Button, Group, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IconInfo, IconRefresh } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useSessionStore } from '../../stores/session-store';
import { useSettingsStore } from '../../stores/settings-store';
import { CopyField } from './copy-field';
import { SectionCard } from './section-card';
import { ApiLoginFields } from './api-login-fields';
import { WebhooksOverview } from './webhooks-overview';
import { LocalAddressSwitch } from './local-address-switch';
import { localApiAddress } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';
import { CodeText } from '../../components/code-text';

/** The local interface for the shop's other programs: on/off, its address, its token (copy, regenerate), the login existing integrations use. */
export function LocalApiSection() {
  const t = useT();
  const enabled = useSettingsStore((s) => s.settings?.preferences.localApiEnabled ?? true);
  const token = useSettingsStore((s) => s.settings?.apiToken ?? '');
  const announced = useSettingsStore((s) => s.environment?.localApiUrl);
  const kind = useSessionStore((s) => s.transportKind) ?? 'ipc';
  const url = localApiAddress(announced, kind, window.location.origin);
  const [showToken, setShowToken] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // The switch moves at once; if the core refuses, it goes back to what is stored.
  const [pending, setPending] = useState<boolean | undefined>(undefined);

  const toggle = async (next: boolean) => {
    setPending(next);
    const result = await useSettingsStore.getState().savePreferences({ localApiEnabled: next });
    setPending(undefined);
    if (result.ok) toastSuccess((tr) => tr(next ? 'settings.api.enabledOn' : 'settings.api.enabledOff'));
    else toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };

  const regenerate = async () => {
    setBusy(true);
    const result = await useSettingsStore.getState().regenerateToken();
    setBusy(false);
    setConfirming(false);
    if (result.ok) {
      setShowToken(true);
      toastSuccess((tr) => tr('settings.api.regenerated'));
    } else toastFailure((tr) => tr('settings.api.regenerateFailed'), result.error);
  };

  return (
    <SectionCard title={t('settings.api.title')} hint={t('settings.api.hint')} testId="api-section">
      <Switch
        label={t('settings.api.enabled')}
        description={t((pending ?? enabled) ? 'settings.api.enabledHintOn' : 'settings.api.enabledHintOff')}
        checked={pending ?? enabled}
        disabled={pending !== undefined}
        onChange={(e) => void toggle(e.currentTarget.checked)}
        data-testid="api-enabled"
      />
      <LocalAddressSwitch preference="allowLocalDownloads" label="settings.api.localDownloads" hint={{ on: 'settings.api.localDownloadsHintOn', off: 'settings.api.localDownloadsHintOff' }} testId="api-local-downloads" />
      <LocalAddressSwitch preference="allowLocalWebhooks" label="settings.api.localWebhooks" hint={{ on: 'settings.api.localWebhooksHintOn', off: 'settings.api.localWebhooksHintOff' }} testId="api-local-webhooks" />
      <Stack gap="sm" style={{ opacity: enabled ? 1 : 0.6 }}>
        {url ? (
          <CopyField label={t('settings.api.url')} value={url} testId="api-url" />
        ) : (
          <Alert variant="light" color="gray" icon={<IconInfo size={18} />} p="sm" data-testid="api-not-served">
            <CodeText text={t('settings.api.notServed')} />
          </Alert>
        )}
        <CopyField
          label={t('settings.api.token')}
          description={<CodeText text={t('settings.api.tokenHint')} />}
          value={token}
          shown={showToken ? token : '•'.repeat(Math.min(24, token.length))}
          testId="api-token"
          extra={
            <Button variant="default" onClick={() => setShowToken((v) => !v)} aria-pressed={showToken} data-testid="api-token-show">
              {showToken ? t('settings.api.hide') : t('settings.api.show')}
            </Button>
          }
        />
        <Group>
          <Button variant="light" color="orange" leftSection={<IconRefresh size={16} />} onClick={() => setConfirming(true)} data-testid="api-regenerate">
            {t('settings.api.regenerate')}
          </Button>
        </Group>
        <ApiLoginFields />
        <WebhooksOverview />
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('settings.api.confirmTitle')}
        body={t('settings.api.confirmBody')}
        confirmLabel={t('settings.api.confirm')}
        keepLabel={t('settings.keep')}
        busy={busy}
        onConfirm={() => void regenerate()}
        onClose={() => setConfirming(false)}
        testId="api-regenerate-dialog"
      />
    </SectionCard>
  );
}
