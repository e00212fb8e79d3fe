import { ActionIcon, Alert, Badge, Button, Group, MultiSelect, Paper, Select, Stack, Switch, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { Fragment, useEffect, useMemo, useState } from 'react';
import type { ImportField } from '../../../shared/contract/import';
import { IconCheck, IconTrash } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import { translateDynamic } from '../../i18n/translate';
import type { Translate } from '../../i18n/types';
import { useT } from '../../i18n/use-t';
import { useImportStore } from '../../stores/import-store';
import { providerName, useProvidersStore } from '../../stores/providers-store';
import { toastRefusal, useToastStore } from '../../stores/toast-store';
import { defaultOptions, fieldGroups, groupOf, missingRequired, numericColumns } from './import-logic';
import { StepButtons } from './step-buttons';
import { TemplateButton } from './template-button';

/** A field's name without its group (the group is the table's section). */
export function fieldName(key: string, t: Translate): string {
  const last = key.split('.').slice(1).join('.');
  if (key.startsWith('extraParams.')) return last;
  // The import's own name first (a tariff is chosen by its name here, not by its id)
  return translateDynamic(t, `import.field.${last}`) ?? translateDynamic(t, `field.${last}`) ?? last;
}

/** A field with its group, for lists outside the mapping table: "Recipient › Phone". */
export function fieldTitle(key: string, t: Translate): string {
  const group = translateDynamic(t, `import.group.${key.split('.')[0]}`);
  return group ? `${group} › ${fieldName(key, t)}` : key;
}

const isNameKey = (key: string) => key.endsWith('.contactName');
const isChoice = (key: string) => key === 'order.deliveryType' || key === 'order.pickupType';

/** Step 3: which column fills which field, defaults, and saved mappings. */
export function ColumnsStep() {
  const t = useT();
  const preview = useImportStore((s) => s.preview)!;
  const settings = useImportStore((s) => s.settings);
  const fields = useImportStore((s) => s.fields);
  const [showAll, setShowAll] = useState(false);
  const missing = missingRequired(fields, settings.columnMap, settings.defaultData);
  const senderProfile = useImportStore((s) => s.senderProfile);
  const senderMapped = Object.keys(settings.columnMap).some((k) => k.startsWith('sender.') && settings.columnMap[k]);
  useEffect(() => {
    void useImportStore.getState().loadTariffs();
  }, [settings.providerKey]);

  const options = useMemo(() => {
    const titles = new Map(preview.headers.map((h) => [h.column, h.title]));
    const seen = new Set([...preview.headers.map((h) => h.column), ...preview.rows.flatMap((r) => Object.keys(r.cells))]);
    return [...seen]
      .sort((a, b) => a.length - b.length || a.localeCompare(b))
      .map((c) => ({ value: c, label: titles.has(c) ? `${c} — ${titles.get(c)}` : c }));
  }, [preview]);
  const numeric = useMemo(() => numericColumns(preview.rows, settings.rowStart), [preview, settings.rowStart]);

  const extraKeys = [...new Set([...Object.keys(settings.columnMap), ...Object.keys(settings.defaultData)].filter((k) => k.startsWith('extraParams.')))];
  // A field the wizard fills itself shows where the shop may want to see or change it: the delivery and the tariff.
  const visible = (f: ImportField) =>
    showAll || f.required !== false || isChoice(f.key) || Boolean(settings.columnMap[f.key] || settings.defaultData[f.key]) || (f.filledBy !== undefined && f.filledBy !== 'senderProfile' && f.filledBy !== 'service');
  const matched = preview.suggested.matches.filter((m) => m.key !== null).length;

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (missing.length === 0) void useImportStore.getState().check();
      }}
    >
      <Stack gap="sm">
        <PlatformChoice />
        <Presets />
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={3} fz="md">
              {t('import.map.title')}
            </Title>
            <Text size="xs" c="dimmed">
              {t('import.map.hint')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('import.map.sumExplain')}
            </Text>
            {!senderMapped && (
              <Text size="xs" c={senderProfile ? 'teal.8' : 'orange.8'} data-testid="import-sender-note">
                {senderProfile ? t('import.map.senderProfile', { name: senderProfile }) : senderProfile === null ? t('import.map.noSenderProfile') : ''}
              </Text>
            )}
          </div>
          <Group gap="md">
            <Badge variant="light" data-testid="import-guessed">
              {t('import.map.guessed', { n: matched, total: preview.suggested.matches.length })}
            </Badge>
            <Switch label={t('import.map.showOptional')} checked={showAll} onChange={(e) => setShowAll(e.currentTarget.checked)} data-testid="import-show-optional" />
          </Group>
        </Group>
        <Paper withBorder>
          <Table fz="sm" verticalSpacing={4} data-testid="import-mapping">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="30%">{t('import.map.field')}</Table.Th>
                <Table.Th w="40%">{t('import.map.column')}</Table.Th>
                <Table.Th>{t('import.map.default')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...fieldGroups, 'extraParams' as const].map((group) => {
                const rows = group === 'extraParams' ? extraKeys.map((key): ImportField => ({ key, level: 'order', kind: 'text', required: false })) : fields.filter((f) => groupOf(f.key) === group && visible(f));
                if (rows.length === 0) return null;
                return (
                  <Fragment key={group}>
                    <Table.Tr>
                      <Table.Td colSpan={3} bg="var(--mantine-color-default-hover)">
                        <Text fw={600} size="sm">
                          {t(`import.group.${group}`)}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                    {rows.map((f) => (
                      <MappingRow key={f.key} field={f} options={options} numeric={numeric} missing={missing.includes(f.key)} />
                    ))}
                    {group === 'sender' && !showAll && !senderMapped && senderProfile && (
                      <Table.Tr>
                        <Table.Td colSpan={3}>
                          <Text size="xs" c="dimmed">
                            {t('import.filled.senderProfile')}: {senderProfile}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Paper>
        <ExtraParamAdder />
        {missing.length > 0 && (
          <Alert color="orange" variant="light" data-testid="import-missing" role="status">
            <Text size="sm">{t('import.map.missing', { fields: missing.map((k) => fieldTitle(k, t)).join(', ') })}</Text>
            {missing.some((k) => /\.(countryCode|region|city|street|house)$/.test(k)) && (
              <Text size="xs" c="dimmed">
                {t('import.map.addressHint')}
              </Text>
            )}
          </Alert>
        )}
        <StepButtons back="preview" nextLabel={t('import.check.run')} nextDisabled={missing.length > 0} />
      </Stack>
    </form>
  );
}

function MappingRow({ field, options, numeric, missing }: { field: ImportField; options: { value: string; label: string }[]; numeric: ReadonlySet<string>; missing: boolean }) {
  const t = useT();
  const nameFormat = useImportStore((s) => s.settings.nameFormat);
  const column = useImportStore((s) => s.settings.columnMap[field.key] ?? '');
  const fallback = useImportStore((s) => s.settings.defaultData[field.key] ?? '');
  const { setColumn, setDefault } = useImportStore.getState();
  const tariffs = useImportStore((s) => s.tariffs);
  const providers = useProvidersStore((s) => s.providers);
  const providerKey = useImportStore((s) => s.settings.providerKey);
  const name = fieldName(field.key, t);
  const choices = defaultOptions(field.key, { columns: options, tariffs, current: fallback, numeric }, t);
  // order.providerKey comes from the wizard's delivery service when no column names one
  const required = (field.required === true && field.key !== 'order.providerKey') || (field.required === 'address' && missing);
  return (
    <Table.Tr data-testid={`map-${field.key}`} data-missing={missing || undefined}>
      <Table.Td>
        <Text size="sm" c={missing ? 'orange.8' : undefined}>
          {name}
          {required && (
            <Text span c="red" aria-hidden>
              {' '}*
            </Text>
          )}
        </Text>
        {field.filledBy && !column && !fallback && (
          <Text size="xs" c="dimmed" data-testid={`map-filled-${field.key}`}>
            {t(`import.filled.${field.filledBy}`)}
          </Text>
        )}
        {isChoice(field.key) && (
          <Text size="xs" c="dimmed">
            {t(`import.map.wordsHint.${field.key as 'order.deliveryType' | 'order.pickupType'}`)}
          </Text>
        )}
        {field.key === 'order.tariffId' && (
          <Text size="xs" c="dimmed">
            {t('import.map.tariffHint')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {isNameKey(field.key) && nameFormat ? (
          <MultiSelect
            size="xs"
            aria-label={t('import.map.nameParts', { field: name })}
            data={options}
            maxValues={3}
            value={column ? column.split(',') : []}
            onChange={(v) => setColumn(field.key, v.join(','))}
            data-testid={`map-column-${field.key}`}
          />
        ) : (
          <Select
            size="xs"
            aria-label={t('import.map.columnLabel', { field: name })}
            aria-required={required || undefined}
            placeholder={t('import.map.none')}
            data={options}
            value={column || null}
            onChange={(v) => setColumn(field.key, v ?? '')}
            clearable
            searchable
            data-testid={`map-column-${field.key}`}
          />
        )}
      </Table.Td>
      <Table.Td>
        {choices ? (
          <Select
            size="xs"
            aria-label={field.key === 'order.tariffId' ? t('import.map.tariffLabel', { service: providerName(providers, providerKey) }) : t('import.map.defaultLabel', { field: name })}
            placeholder={t('import.map.defaultHint')}
            data={choices}
            value={fallback || null}
            onChange={(v) => setDefault(field.key, v ?? '')}
            clearable
            searchable
            data-testid={`map-default-${field.key}`}
          />
        ) : (
          <TextInput
            size="xs"
            aria-label={t('import.map.defaultLabel', { field: name })}
            placeholder={t('import.map.defaultHint')}
            value={fallback}
            onChange={(e) => setDefault(field.key, e.currentTarget.value)}
            data-testid={`map-default-${field.key}`}
          />
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** An additional service's parameter as a column (extraParams.{name}); the core checks the name against the service. */
function ExtraParamAdder() {
  const t = useT();
  const [name, setName] = useState('');
  const add = () => {
    const clean = name.trim();
    if (!/^[A-Za-z][\w-]{0,99}$/.test(clean)) return;
    useImportStore.getState().setColumn(`extraParams.${clean}`, '');
    setName('');
  };
  return (
    <Group gap="xs" align="flex-end">
      <TextInput
        size="xs"
        label={t('import.map.extra')}
        placeholder={t('import.map.extraName')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
      />
      <Button size="xs" variant="default" onClick={add}>
        {t('import.map.extraAdd')}
      </Button>
    </Group>
  );
}

/** Which program the file comes from: its ready mapping (found from the titles, or chosen), and our template. */
function PlatformChoice() {
  const t = useT();
  const platforms = useImportStore((s) => s.platforms);
  const platform = useImportStore((s) => s.platform);
  const name = platforms.find((p) => p.id === platform)?.name;
  return (
    <Paper withBorder p="sm">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          size="xs"
          label={t('import.platform.label')}
          data={[{ value: '', label: t('import.platform.none') }, ...platforms.map((p) => ({ value: p.id, label: p.name }))]}
          value={platform ?? ''}
          onChange={(v) => void useImportStore.getState().applyPlatform(v || undefined)}
          allowDeselect={false}
          w={320}
          data-testid="import-platform"
        />
        <TemplateButton />
      </Group>
      {name && (
        <Text size="xs" c="teal.8" mt={4} data-testid="import-platform-detected">
          {t('import.platform.detected', { name })}
        </Text>
      )}
    </Paper>
  );
}

/** Saved mappings: pick one, save the current one under a name, delete one. */
function Presets() {
  const t = useT();
  const presets = useImportStore((s) => s.presets);
  const applied = useImportStore((s) => s.appliedPreset);
  const [name, setName] = useState(applied ?? '');
  const [saving, setSaving] = useState(false);
  const current = presets.find((p) => p.name === applied);
  const toast = useToastStore.getState().push;

  const save = async () => {
    const clean = name.trim();
    if (!clean || saving) return;
    setSaving(true);
    const result = await useImportStore.getState().savePreset(clean);
    setSaving(false);
    if (result.ok) toast({ tone: 'success', title: (tt) => tt('import.preset.saved', { name: clean }) });
    else {
      const error = result.error;
      toastRefusal(error, { title: (tt) => `${tt('import.preset.failed')}: ${errorTitle(error, tt)}`, message: (tt) => errorHint(error, tt) ?? '' });
    }
  };

  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        {applied && (
          <Text size="sm" c="teal.8" data-testid="import-preset-applied">
            <IconCheck size={14} /> {t('import.preset.applied', { name: applied })}
          </Text>
        )}
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            size="xs"
            label={t('import.preset.label')}
            placeholder={t('import.preset.none')}
            data={presets.map((p) => ({ value: String(p.id), label: p.name }))}
            value={current ? String(current.id) : null}
            onChange={(v) => {
              const preset = presets.find((p) => String(p.id) === v);
              if (preset) {
                useImportStore.getState().applyPreset(preset);
                setName(preset.name);
              }
            }}
            w={240}
            data-testid="import-preset-select"
          />
          {current && (
            <Tooltip label={t('import.preset.delete')}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('import.preset.delete')}
                onClick={() => {
                  void useImportStore.getState().deletePreset(current.id);
                  useImportStore.setState({ appliedPreset: undefined });
                  toast({ tone: 'info', title: (tt) => tt('import.preset.deleted', { name: current.name }) });
                }}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
          <TextInput
            size="xs"
            label={t('import.preset.saveName')}
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void save();
              }
            }}
            w={240}
            data-testid="import-preset-name"
          />
          <Button size="xs" variant="light" onClick={() => void save()} loading={saving} disabled={!name.trim()} data-testid="import-preset-save">
            {t('import.preset.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
