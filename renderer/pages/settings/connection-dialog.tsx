import { Button, Checkbox, Group, Modal, PasswordInput, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { fieldMessage } from '../../i18n/error-messages';
import { useState, type FormEvent } from 'react';
import type { Connection } from '../../../shared/contract/connections';
import { useLanguage, useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useSettingsStore } from '../../stores/settings-store';
import {
  checkConnectionChange, checkNewConnection, connectionAliases, connectionFormOf, emptyConnectionForm, isListedKind, listedAliases, refusalErrors,
  type ConnectionForm,
} from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';

/**
 * Adds CDEK (own credentials, or test mode with CDEK's public test account), an upstream aggregator (address and
 * token), or any other service of the core's carrier table (its fields as the table lists them), or edits one.
 * Stored secrets are never shown: empty secret fields keep them.
 */
export function ConnectionDialog({ connection, onClose }: { connection?: Connection; onClose: () => void }) {
  const t = useT();
  const [form, setForm] = useState<ConnectionForm>(() => (connection ? connectionFormOf(connection) : emptyConnectionForm()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const language = useLanguage();
  const kinds = useSettingsStore((s) => s.kinds);
  const cdek = form.providerKey === 'cdek';
  const listed = isListedKind(form.providerKey);
  const kind = kinds.find((k) => k.key === form.providerKey);
  const hint = connection?.clientIdHint ?? '…';

  const change = <K extends keyof ConnectionForm>(key: K, value: ConnectionForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors({});
  };
  const error = (key: string) => (errors[key] ? fieldMessage(errors[key], t) : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const store = useSettingsStore.getState();
    let result;
    if (connection) {
      const checked = checkConnectionChange(form, connection, kind);
      if (!checked.ok) return setErrors(checked.errors);
      setBusy(true);
      result = await store.updateConnection(checked.value);
    } else {
      const checked = checkNewConnection(form, kind);
      if (!checked.ok) return setErrors(checked.errors);
      setBusy(true);
      result = await store.createConnection(checked.value);
    }
    setBusy(false);
    if (!result.ok) {
      setErrors(refusalErrors(result.error, listed ? listedAliases(kind) : connectionAliases));
      toastFailure((tr) => tr('settings.saveFailed'), result.error);
      return;
    }
    toastSuccess((tr) => tr(connection ? 'settings.connections.updated' : 'settings.connections.created'));
    onClose();
  };

  return (
    <Modal opened onClose={onClose} title={t(connection ? 'settings.connections.editTitle' : 'settings.connections.newTitle')} size="lg" centered data-testid="connection-dialog">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {!connection && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="connection-service-label">
                {t('settings.connections.service')}
              </Text>
              <SegmentedControl
                value={form.providerKey}
                onChange={(v) => change('providerKey', v)}
                aria-labelledby="connection-service-label"
                data={[
                  { value: 'cdek', label: t('settings.connections.cdek') },
                  { value: 'upstream', label: t('settings.connections.upstream') },
                  ...kinds.filter((k) => isListedKind(k.key)).map((k) => ({ value: k.key, label: k.name })),
                ]}
                data-testid="connection-service"
              />
              {form.providerKey === 'upstream' && (
                <Text size="xs" c="dimmed">
                  {t('settings.connections.upstreamHint')}
                </Text>
              )}
            </Stack>
          )}
          <TextInput
            label={t('settings.connections.name')}
            description={t('settings.connections.nameHint')}
            withAsterisk
            value={form.name}
            onChange={(e) => change('name', e.currentTarget.value)}
            error={error('name')}
            data-autofocus
            data-testid="connection-name"
          />
          {(cdek || (listed && kind?.testMode)) && (
            <Switch
              label={t('settings.connections.testModeLabel')}
              description={t('settings.connections.testModeHint')}
              checked={form.testMode}
              onChange={(e) => change('testMode', e.currentTarget.checked)}
              data-testid="connection-testMode"
            />
          )}
          {listed ? (
            (kind?.fields ?? []).map((f) => {
              const Input = f.secret ? PasswordInput : TextInput;
              const needed = f.required === 'always' || (f.required === 'outsideTestMode' && !form.testMode);
              return (
                <Input
                  key={f.name}
                  label={f.label[language]}
                  withAsterisk={needed && !(f.secret && connection?.credentialsStored)}
                  value={form.fields[f.name] ?? ''}
                  onChange={(e) => change('fields', { ...form.fields, [f.name]: e.currentTarget.value })}
                  error={error(f.name)}
                  autoComplete={f.secret ? 'new-password' : 'off'}
                  spellCheck={false}
                  data-testid={`connection-field-${f.name}`}
                />
              );
            })
          ) : cdek ? (
            <Group grow align="flex-start">
              <TextInput
                label={t('settings.connections.clientId')}
                withAsterisk={!form.testMode && !connection?.credentialsStored}
                value={form.clientId}
                onChange={(e) => change('clientId', e.currentTarget.value)}
                error={error('clientId')}
                autoComplete="off"
                spellCheck={false}
                data-testid="connection-clientId"
              />
              <PasswordInput
                label={t('settings.connections.clientSecret')}
                withAsterisk={!form.testMode && !connection?.credentialsStored}
                value={form.clientSecret}
                onChange={(e) => change('clientSecret', e.currentTarget.value)}
                error={error('clientSecret')}
                autoComplete="new-password"
                data-testid="connection-clientSecret"
              />
            </Group>
          ) : (
            <PasswordInput
              label={t('settings.connections.token')}
              withAsterisk={!connection}
              value={form.token}
              onChange={(e) => change('token', e.currentTarget.value)}
              error={error('token')}
              autoComplete="new-password"
              data-testid="connection-token"
            />
          )}
          {connection?.credentialsStored && (
            <Text size="xs" c="dimmed" data-testid="connection-keep-secret">
              {t(form.providerKey === 'upstream' ? 'settings.connections.keepToken' : 'settings.connections.keepSecret', { hint })}
            </Text>
          )}
          {connection && cdek && connection.credentialsStored && form.testMode && (
            <Checkbox
              label={t('settings.connections.forgetCredentials')}
              checked={form.forgetCredentials}
              onChange={(e) => change('forgetCredentials', e.currentTarget.checked)}
              data-testid="connection-forget"
            />
          )}
          <TextInput
            label={t('settings.connections.baseUrl')}
            description={t(form.providerKey === 'upstream' ? 'settings.connections.baseUrlUpstreamHint' : cdek ? 'settings.connections.baseUrlCdekHint' : 'settings.connections.baseUrlServiceHint')}
            withAsterisk={form.providerKey === 'upstream'}
            placeholder="https://"
            value={form.baseUrl}
            onChange={(e) => change('baseUrl', e.currentTarget.value)}
            error={error('baseUrl')}
            spellCheck={false}
            data-testid="connection-baseUrl"
          />
        </Stack>
        <Group justify="flex-end" mt="lg" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('settings.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="connection-save">
            {t('settings.save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
