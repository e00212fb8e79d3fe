import { Button, Checkbox, Group, Modal } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { SenderProfile } from '../../../shared/schemas/settings';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useSettingsStore } from '../../stores/settings-store';
import { checkSender, newSenderForm, refusalErrors, senderAliases, senderFormOf, type SenderForm } from './settings-forms';
import { TextFieldGrid, type TextFieldSpec } from './text-field-grid';
import { toastFailure, toastSuccess } from './use-feedback';

type TextKey = Exclude<keyof SenderForm, 'isDefault'>;

const fields: readonly TextFieldSpec<TextKey>[] = [
  { key: 'profileName', label: 'settings.senders.profileName', hint: 'settings.senders.profileNameHint', required: true, wide: true },
  { key: 'contactName', label: 'settings.senders.contactName', required: true },
  { key: 'phone', label: 'settings.senders.phone', required: true },
  { key: 'email', label: 'settings.senders.email' },
  { key: 'companyName', label: 'settings.senders.companyName' },
  { key: 'city', label: 'settings.senders.city', required: true },
  { key: 'index', label: 'settings.senders.index' },
  { key: 'addressString', label: 'settings.senders.addressString', wide: true },
  { key: 'countryCode', label: 'settings.senders.countryCode' },
];

/** Adds or edits one sender profile; Enter saves, Escape closes. */
export function SenderProfileDialog({ profile, onClose }: { profile?: SenderProfile; onClose: () => void }) {
  const t = useT();
  const company = useSettingsStore((s) => s.settings?.company);
  const isFirst = useSettingsStore((s) => (s.settings?.senderProfiles.length ?? 0) === 0);
  const [form, setForm] = useState<SenderForm>(() => (profile ? senderFormOf(profile) : newSenderForm(company, isFirst)));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const change = <K extends keyof SenderForm>(key: K, value: SenderForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (errors[key]) setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkSender(form, profile?.sender);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    const store = useSettingsStore.getState();
    const { name, sender, isDefault } = checked.value;
    const result = profile
      ? await store.updateProfile({ id: profile.id, name, sender, ...(isDefault && !profile.isDefault ? { isDefault: true } : {}) })
      : await store.createProfile({ name, sender, isDefault });
    setBusy(false);
    if (!result.ok) {
      setErrors(refusalErrors(result.error, senderAliases));
      toastFailure((tr) => tr('settings.saveFailed'), result.error);
      return;
    }
    toastSuccess((tr) => tr(profile ? 'settings.senders.updated' : 'settings.senders.created'));
    onClose();
  };

  return (
    <Modal opened onClose={onClose} title={t(profile ? 'settings.senders.editTitle' : 'settings.senders.newTitle')} size="lg" centered data-testid="sender-dialog">
      <form onSubmit={submit} noValidate>
        <TextFieldGrid fields={fields} values={form} errors={errors} onChange={change} testIdPrefix="sender" autofocusFirst />
        <Checkbox
          mt="md"
          label={t('settings.senders.setDefault')}
          checked={form.isDefault}
          // The default stays the default until another one is chosen.
          disabled={profile?.isDefault || (!profile && isFirst)}
          onChange={(e) => change('isDefault', e.currentTarget.checked)}
          data-testid="sender-isDefault"
        />
        <Group justify="flex-end" mt="lg" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('settings.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="sender-save">
            {t('settings.save')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
