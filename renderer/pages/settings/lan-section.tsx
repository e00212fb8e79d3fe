import { Alert, Badge, Button, Center, Checkbox, Code, Group, Loader, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { LanState } from '../../../shared/contract/lan';
import { IconAlert, IconCheck, IconInfo } from '../../components/icons';
import { errorTitle, fieldMessage } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useLanStore } from '../../stores/lan-store';
import { CopyField, CopyValueButton } from './copy-field';
import { SectionCard } from './section-card';
import { checkLan, lanFormOf, refusalErrors, type LanForm } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';
import { CodeText } from '../../components/code-text';

/** Settings → Access from other computers (the owner's): on/off, addresses, names, port, and what the second PC needs. */
export function LanSection() {
  const t = useT();
  const status = useLanStore((s) => s.status);
  const state = useLanStore((s) => s.state);
  const error = useLanStore((s) => s.error);

  useEffect(() => {
    void useLanStore.getState().load();
  }, []);

  if (status === 'error' && error)
    return (
      <Alert color="red" variant="light" icon={<IconAlert size={18} />} title={t('access.lan.loadFailed')} data-testid="lan-load-error">
        {errorTitle(error, t)}
      </Alert>
    );
  if (!state)
    return (
      <Center h={160}>
        <Loader size="sm" />
      </Center>
    );
  return (
    <SectionCard title={t('access.lan.title')} hint={t('access.lan.hint')} testId="lan-section">
      {!state.served && (
        <Alert variant="light" color="gray" icon={<IconInfo size={18} />} p="sm" data-testid="lan-not-served">
          {t('access.lan.notServed')}
        </Alert>
      )}
      <LanForm state={state} />
      <LanNow state={state} />
    </SectionCard>
  );
}

function LanForm({ state }: { state: LanState }) {
  const t = useT();
  const [form, setForm] = useState<LanForm>(() => lanFormOf(state.settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const known = new Set(state.interfaces.map((i) => i.address));

  const change = <K extends keyof LanForm>(key: K, value: LanForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors({});
  };
  const typedAddresses = form.addresses.filter((a) => !known.has(a));
  const addressError = Object.entries(errors).find(([field]) => field === 'addresses' || field.startsWith('addresses.'))?.[1];
  const namesError = Object.entries(errors).find(([field]) => field.startsWith('names'))?.[1];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkLan(form);
    if (!checked.ok) return setErrors(checked.errors);
    setBusy(true);
    const result = await useLanStore.getState().save(checked.value);
    setBusy(false);
    if (!result.ok) {
      setErrors(refusalErrors(result.error));
      toastFailure((tr) => tr('settings.saveFailed'), result.error);
      return;
    }
    setForm(lanFormOf(result.value.settings));
    toastSuccess((tr) => tr(result.value.settings.enabled ? 'access.lan.saved' : 'access.lan.savedOff'));
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Switch
          label={t('access.lan.enabled')}
          description={t(form.enabled ? 'access.lan.enabledHintOn' : 'access.lan.enabledHintOff')}
          checked={form.enabled}
          onChange={(e) => change('enabled', e.currentTarget.checked)}
          data-testid="lan-enabled"
        />
        <Checkbox.Group
          label={t('access.lan.addresses')}
          description={state.interfaces.length ? t('access.lan.addressesHint') : t('access.lan.noInterfaces')}
          value={form.addresses.filter((a) => known.has(a))}
          onChange={(chosen) => change('addresses', [...chosen, ...typedAddresses])}
          error={addressError ? fieldMessage(addressError, t) : undefined}
          data-testid="lan-interfaces"
        >
          <Stack gap={6} mt={8}>
            {state.interfaces.map((entry) => (
              <Checkbox
                key={entry.address}
                value={entry.address}
                label={
                  <Text span ff="monospace" fz="sm">
                    {entry.address} <Text span c="dimmed" fz="xs">({entry.name})</Text>
                  </Text>
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <TagsInput
          label={t('access.lan.otherAddresses')}
          description={t('access.lan.otherAddressesHint')}
          value={typedAddresses}
          onChange={(typed) => change('addresses', [...form.addresses.filter((a) => known.has(a)), ...typed.map((a) => a.trim())])}
          maw={520}
          data-testid="lan-addresses"
        />
        <TagsInput
          label={t('access.lan.names')}
          description={t('access.lan.namesHint', { hostname: state.hostname })}
          value={form.names}
          data={[state.hostname, `${state.hostname}.local`].filter((n) => !form.names.includes(n))}
          onChange={(names) => change('names', names.map((n) => n.trim().toLowerCase()))}
          error={namesError ? fieldMessage(namesError, t) : undefined}
          maw={520}
          data-testid="lan-names"
        />
        <TextInput
          label={t('access.lan.port')}
          inputMode="numeric"
          value={form.port}
          onChange={(e) => change('port', e.currentTarget.value)}
          error={errors.port ? fieldMessage(errors.port, t) : undefined}
          maw={160}
          data-testid="lan-port"
        />
        <Switch
          label={t('access.lan.offerInterface')}
          description={<CodeText text={t(form.offerInterface ? 'access.lan.offerInterfaceHintOn' : 'access.lan.offerInterfaceHintOff')} />}
          checked={form.offerInterface}
          onChange={(e) => change('offerInterface', e.currentTarget.checked)}
          data-testid="lan-offer-interface"
        />
        <Group>
          <Button type="submit" loading={busy} data-testid="lan-save">
            {t('access.lan.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The fingerprint whole, in two lines of 16 bytes, the way a person compares it with the browser's. */
function Fingerprint({ value }: { value: string }) {
  const t = useT();
  const bytes = value.split(':');
  return (
    <Stack gap={4}>
      <Text fw={500} fz="sm">
        {t('access.lan.fingerprint')}
      </Text>
      <Text fz="xs" c="dimmed">
        {t('access.lan.fingerprintHint')}
      </Text>
      <Group gap="xs" align="center" wrap="nowrap">
        <Code block fz="sm" data-testid="lan-fingerprint" data-value={value} style={{ flex: 1 }}>
          {`${bytes.slice(0, 16).join(':')}\n${bytes.slice(16).join(':')}`}
        </Code>
        <CopyValueButton value={value} />
      </Group>
    </Stack>
  );
}

/** What listens now, the address to type on the second PC and the fingerprint to compare. */
function LanNow({ state }: { state: LanState }) {
  const t = useT();
  if (!state.settings.enabled)
    return (
      <Alert variant="light" color="gray" icon={<IconInfo size={18} />} p="sm" data-testid="lan-off">
        {t('access.lan.off')}
      </Alert>
    );
  const [first, ...others] = state.urls;
  return (
    <Stack gap="sm" data-testid="lan-now">
      <Text fw={600} fz="sm">
        {t('access.lan.status')}
      </Text>
      {state.listeners.map((listener) => (
        <Group key={listener.address} gap="xs" wrap="nowrap" data-testid="lan-listener">
          {listener.problem === null ? (
            <Badge color="teal" variant="light" leftSection={<IconCheck size={12} />}>
              {t('access.lan.listening')}
            </Badge>
          ) : (
            <Badge color="red" variant="light" leftSection={<IconAlert size={12} />}>
              {listener.address}
            </Badge>
          )}
          <Text fz="sm" ff={listener.problem === null ? 'monospace' : undefined}>
            {listener.problem === null ? listener.url : t(`access.lan.problem.${listener.problem}`, { detail: listener.detail ?? '' })}
          </Text>
        </Group>
      ))}
      {first && <CopyField label={t('access.lan.connect')} description={t('access.lan.connectHint')} value={first} testId="lan-url" />}
      {others.length > 0 && (
        <Text fz="sm" ff="monospace" c="dimmed" data-testid="lan-other-urls">
          {others.join('   ')}
        </Text>
      )}
      {state.certificate ? (
        <Fingerprint value={state.certificate.fingerprint256} />
      ) : (
        <Text fz="sm" c="dimmed">
          {t('access.lan.noCertificate')}
        </Text>
      )}
    </Stack>
  );
}
