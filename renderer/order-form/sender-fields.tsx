import { Button, Grid, Group, Popover, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { errorTitle, fieldLabel, fieldMessage } from '../i18n/error-messages';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useToastStore } from '../stores/toast-store';
import { AddressPartsFields } from './address-parts-fields';
import { BoundTextInput } from './bound-inputs';
import { FormSection } from './form-section';
import { toCreateInput } from './form-values';
import { useSenderProfilesStore } from './sender-profiles-store';

/** The sender: filled from the default saved profile, another profile a pick away, and the typed one savable as a profile. */
export function SenderFields() {
  const t = useT();
  return (
    <FormSection legend={t('form.section.sender')} testId="sender-fields">
      <Stack gap="sm">
        <Group gap="sm" align="flex-end">
          <ProfilePicker />
          <SaveAsProfile />
        </Group>
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, xs: 4 }}>
            <BoundTextInput group="sender" field="contactName" required autoComplete="section-sender name" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xs: 4 }}>
            <BoundTextInput group="sender" field="phone" required type="tel" autoComplete="section-sender tel" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xs: 4 }}>
            <BoundTextInput group="sender" field="companyName" autoComplete="section-sender organization" />
          </Grid.Col>
          <AddressPartsFields group="sender" />
        </Grid>
      </Stack>
    </FormSection>
  );
}

function ProfilePicker() {
  const t = useT();
  const { profiles, load } = useSenderProfilesStore();
  const applySender = useOrderFormStore((s) => s.applySender);
  useEffect(() => {
    void load();
  }, [load]);
  if (profiles.length === 0) return null;
  return (
    <Select
      label={t('entry.sender.profile')}
      placeholder={t('entry.sender.profilePlaceholder')}
      data={profiles.map((p) => ({ value: String(p.id), label: p.isDefault ? `${p.name} (${t('entry.sender.default')})` : p.name }))}
      value={null}
      onChange={(id) => {
        const profile = profiles.find((p) => String(p.id) === id);
        if (profile) applySender(profile.sender);
      }}
      w={260}
      size="xs"
      data-testid="sender-profile-select"
    />
  );
}

function SaveAsProfile() {
  const t = useT();
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const create = useSenderProfilesStore((s) => s.create);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (!name.trim()) {
      setError(t('msg.required'));
      return;
    }
    setSaving(true);
    const sender = (toCreateInput(useOrderFormStore.getState().values) as { sender: Record<string, unknown> }).sender;
    const result = await create(name.trim(), sender);
    setSaving(false);
    if (!result.ok) {
      const first = result.error.errors?.[0];
      setError(first ? `${fieldLabel(first.field.replace(/^sender\./, 'sender.'), t)}: ${fieldMessage(first, t)}` : errorTitle(result.error, t));
      return;
    }
    setOpened(false);
    setName('');
    const profileName = result.profile.name;
    useToastStore.getState().push({ tone: 'success', title: (tt) => tt('entry.sender.saved', { name: profileName }) });
  };

  return (
    <Popover opened={opened} onChange={setOpened} trapFocus position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        <Button variant="subtle" size="xs" onClick={() => setOpened((o) => !o)} data-testid="save-sender-profile">
          {t('entry.sender.saveAs')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {/* A nested form would submit the order; this one stops its own submit. */}
        <div role="form" aria-label={t('entry.sender.saveAs')}>
          <Stack gap="xs" w={260}>
            <TextInput
              label={t('entry.sender.profileName')}
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setError(undefined);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') void save(e as unknown as FormEvent);
              }}
              error={error}
              size="xs"
              data-testid="sender-profile-name"
            />
            <Text size="xs" c="dimmed">
              {t('entry.sender.saveHint')}
            </Text>
            <Button size="xs" loading={saving} onClick={(e) => void save(e as unknown as FormEvent)} data-testid="sender-profile-save">
              {t('entry.sender.save')}
            </Button>
          </Stack>
        </div>
      </Popover.Dropdown>
    </Popover>
  );
}
