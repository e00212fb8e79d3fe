import { Button, Group, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { CompanyDetails } from '../../../shared/schemas/settings';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useSettingsStore } from '../../stores/settings-store';
import { SectionCard } from './section-card';
import { TextFieldGrid, type TextFieldSpec } from './text-field-grid';
import { checkCompany, companyForm, refusalErrors, type CompanyForm } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';

const fields: readonly TextFieldSpec<keyof CompanyDetails>[] = [
  { key: 'name', label: 'settings.company.name', required: true, wide: true },
  { key: 'inn', label: 'settings.company.inn', hint: 'settings.company.innHint', inputMode: 'numeric' },
  { key: 'kpp', label: 'settings.company.kpp', inputMode: 'numeric' },
  { key: 'ogrn', label: 'settings.company.ogrn', inputMode: 'numeric' },
  { key: 'contactName', label: 'settings.company.contactName' },
  { key: 'legalAddress', label: 'settings.company.legalAddress', wide: true },
  { key: 'phone', label: 'settings.company.phone', inputMode: 'tel' },
  { key: 'email', label: 'settings.company.email', inputMode: 'email' },
];

/** Company details: checked with the core's rules field by field before anything is sent. */
export function CompanySection() {
  const t = useT();
  const stored = useSettingsStore((s) => s.settings?.company);
  const [form, setForm] = useState<CompanyForm>(() => companyForm(stored ?? {}));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [state, setState] = useState<'clean' | 'saved' | 'invalid'>('clean');

  const change = (key: keyof CompanyForm, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setState('clean');
    if (errors[key]) setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkCompany(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      setState('invalid');
      return;
    }
    setBusy(true);
    const result = await useSettingsStore.getState().saveCompany(checked.value);
    setBusy(false);
    if (!result.ok) {
      setErrors(refusalErrors(result.error));
      setState(result.error.errors?.length ? 'invalid' : 'clean');
      toastFailure((tr) => tr('settings.saveFailed'), result.error);
      return;
    }
    setErrors({});
    setState('saved');
    toastSuccess((tr) => tr('settings.saved'));
  };

  return (
    <SectionCard title={t('settings.company.title')} hint={t('settings.company.hint')} testId="company-section">
      <form onSubmit={submit} noValidate>
        <TextFieldGrid fields={fields} values={form} errors={errors} onChange={change} testIdPrefix="company" />
        <Group mt="lg" gap="md">
          <Button type="submit" loading={busy} data-testid="company-save">
            {t('settings.save')}
          </Button>
          <Text size="sm" c={state === 'invalid' ? 'red' : 'teal'} role="status" data-testid="company-status">
            {state === 'saved' ? t('settings.saved') : state === 'invalid' ? t('settings.fixErrors') : ''}
          </Text>
        </Group>
      </form>
    </SectionCard>
  );
}
