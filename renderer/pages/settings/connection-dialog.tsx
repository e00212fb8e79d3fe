import { Button, Checkbox, Group, Modal, PasswordInput, Radio, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { Fragment, useState, type FormEvent } from 'react';
import type { Connection, ConnectionFieldInfo } from '../../../shared/contract/connections';
import { fieldMessage } from '../../i18n/error-messages';
import { useLanguage, useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useSettingsStore } from '../../stores/settings-store';
import { ConnectionTestResult } from './connection-test-result';
import { checkConnectionChange, checkNewConnection, connectionAliases, connectionFormOf, emptyConnectionForm, refusalErrors, type ConnectionForm } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';

/**
 * Adds or edits a connection of any kind of the core's carrier table (connections.kinds): the kind's own fields,
 * test mode and address as the table describes them. Stored secrets are never shown: empty secret fields keep
 * them. "Save and test" keeps the dialog open with the service's answer.
 */
export function ConnectionDialog({ connection, onClose }: { connection?: Connection; onClose: () => void }) {
  const t = useT();
  const language = useLanguage();
  const kinds = useSettingsStore((s) => s.kinds);
  // The connection as stored: the one edited, or the new one once "Save and test" stored it.
  const [stored, setStored] = useState(connection);
  const [form, setForm] = useState<ConnectionForm>(() => (connection ? connectionFormOf(connection) : emptyConnectionForm(kinds[0]?.key)));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const test = useSettingsStore((s) => (stored ? s.tests[stored.id] : undefined));
  const kind = kinds.find((k) => k.key === form.providerKey);
  const lastSecret = kind?.fields.filter((f) => f.secret).at(-1)?.name;

  const change = <K extends keyof ConnectionForm>(key: K, value: ConnectionForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors({});
  };
  const error = (key: string) => (errors[key] ? fieldMessage(errors[key], t) : undefined);

  /** Checks and stores the form; answers the stored connection, or null when something is marked. */
  const save = async (): Promise<Connection | null> => {
    if (!kind) return null;
    const store = useSettingsStore.getState();
    const marked = (found: FieldErrors) => {
      setErrors(found);
      return null;
    };
    let result;
    if (stored) {
      const checked = checkConnectionChange(form, stored, kind);
      if (!checked.ok) return marked(checked.errors);
      result = await store.updateConnection(checked.value);
    } else {
      const checked = checkNewConnection(form, kind);
      if (!checked.ok) return marked(checked.errors);
      result = await store.createConnection(checked.value);
    }
    if (!result.ok) {
      setErrors(refusalErrors(result.error, connectionAliases(kind)));
      toastFailure((tr) => tr('settings.saveFailed'), result.error);
      return null;
    }
    return result.value;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy('save');
    const saved = await save();
    setBusy(null);
    if (!saved) return;
    toastSuccess((tr) => tr(stored ? 'settings.connections.updated' : 'settings.connections.created'));
    onClose();
  };

  const saveAndTest = async () => {
    setBusy('test');
    const saved = await save();
    if (saved) {
      // Stored now: typed secrets are cleared from the form (never shown back) and further saves change this one.
      setStored(saved);
      setForm(connectionFormOf(saved));
      await useSettingsStore.getState().testConnection(saved.id);
    }
    setBusy(null);
  };

  return (
    <Modal opened onClose={onClose} title={t(stored ? 'settings.connections.editTitle' : 'settings.connections.newTitle')} size="lg" centered data-testid="connection-dialog">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {!stored && (
            <Stack gap={4}>
              {/* One radio a service, in rows of three: every name whole at 1366 px in both languages, arrows move the choice. */}
              <Radio.Group
                label={t('settings.connections.service')}
                value={form.providerKey}
                onChange={(key) => {
                  setForm((f) => ({ ...emptyConnectionForm(key), name: f.name, baseUrl: f.baseUrl }));
                  setErrors({});
                }}
                data-testid="connection-service"
              >
                <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" verticalSpacing="xs" mt={6}>
                  {kinds.map((k) => (
                    <Radio key={k.key} value={k.key} label={k.names[language]} data-testid={`connection-service-${k.key}`} />
                  ))}
                </SimpleGrid>
              </Radio.Group>
              {kind?.aggregator && (
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
          {kind?.testMode && (
            <Switch
              label={t('settings.connections.testModeLabel')}
              description={[t('settings.connections.testModeHint', { name: kind.names[language] }), kind.publicTestAccount ? t('settings.connections.testModePublicAccount') : ''].join(' ').trim()}
              checked={form.testMode}
              onChange={(e) => change('testMode', e.currentTarget.checked)}
              data-testid="connection-testMode"
            />
          )}
          {kind?.fields.map((f) => (
            <Fragment key={f.name}>
              <KindField
                field={f}
                form={form}
                secretsStored={!!stored?.credentialsStored}
                value={form.fields[f.name] ?? ''}
                onChange={(value) => change('fields', { ...form.fields, [f.name]: value })}
                error={error(f.name)}
              />
              {/* Under the last secret field: what leaving them empty does. */}
              {stored?.credentialsStored && f.name === lastSecret && (
                <Text size="xs" c="dimmed" mt={-6} data-testid="connection-keep-secret">
                  {t('settings.connections.keepSecret', { hint: stored.clientIdHint ?? '…' })}
                </Text>
              )}
            </Fragment>
          ))}
          {stored?.credentialsStored && kind?.publicTestAccount && form.testMode && (
            <Checkbox
              label={t('settings.connections.forgetCredentials')}
              checked={form.forgetCredentials}
              onChange={(e) => change('forgetCredentials', e.currentTarget.checked)}
              data-testid="connection-forget"
            />
          )}
          <TextInput
            label={t('settings.connections.baseUrl')}
            description={t(kind?.baseUrl === 'required' ? 'settings.connections.baseUrlUpstreamHint' : 'settings.connections.baseUrlServiceHint')}
            withAsterisk={kind?.baseUrl === 'required'}
            placeholder="https://"
            value={form.baseUrl}
            onChange={(e) => change('baseUrl', e.currentTarget.value)}
            error={error('baseUrl')}
            spellCheck={false}
            data-testid="connection-baseUrl"
          />
          {stored && test && busy !== 'test' && (
            <div data-testid="connection-dialog-test">
              <ConnectionTestResult result={test} />
            </div>
          )}
        </Stack>
        <Group justify="flex-end" mt="lg" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('settings.cancel')}
          </Button>
          <Button variant="light" loading={busy === 'test'} disabled={busy === 'save'} onClick={() => void saveAndTest()} data-testid="connection-save-test">
            {t('settings.connections.saveAndTest')}
          </Button>
          <Button type="submit" loading={busy === 'save'} disabled={busy === 'test'} data-testid="connection-save">
            {t('settings.save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}

/** One setting of the kind: a secret one masked and never filled in, a number one empty for its default. */
function KindField(props: {
  field: ConnectionFieldInfo;
  form: ConnectionForm;
  secretsStored: boolean;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { field: f, form } = props;
  const language = useLanguage();
  const Input = f.secret ? PasswordInput : TextInput;
  const needed = f.required === 'always' || (f.required === 'outsideTestMode' && !form.testMode);
  return (
    <Input
      label={f.label[language]}
      withAsterisk={needed && !(f.secret && props.secretsStored)}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      error={props.error}
      inputMode={f.type === 'number' ? 'numeric' : undefined}
      autoComplete={f.secret ? 'new-password' : 'off'}
      spellCheck={false}
      data-testid={`connection-field-${f.name}`}
    />
  );
}
