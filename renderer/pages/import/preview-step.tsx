import { Group, NumberInput, Paper, ScrollArea, Select, SimpleGrid, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import type { Formatters } from '../../i18n/format';
import type { Translate } from '../../i18n/types';
import { useFormat, useT } from '../../i18n/use-t';
import { useImportStore } from '../../stores/import-store';
import { useProvidersStore } from '../../stores/providers-store';
import { dateFormats, timeFormats } from './import-logic';
import { StepButtons } from './step-buttons';

/** A cell the workbook stores as a date or time ("2026-11-24 09:00", "2026-11-24", "09:00"), as the app's language writes it. */
export function dateCellText(text: string, format: Formatters): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}))?$/.exec(text);
  if (!m) return text;
  return m[2] ? `${format.date(m[1])} ${m[2]}` : format.date(m[1]);
}

/** A format's choices: the known ones by their example, and a format saved earlier that is none of them as it is. */
const formatChoices = (known: ReadonlyArray<readonly [string, Parameters<Translate>[0]]>, current: string, t: Translate) => [
  ...known.map(([value, key]) => ({ value, label: (t as (k: typeof key) => string)(key) })),
  ...(current && !known.some(([value]) => value === current) ? [{ value: current, label: current }] : []),
];

const letters = (n: number) => {
  let s = '';
  for (let v = n; v > 0; v = Math.floor((v - 1) / 26)) s = String.fromCharCode(65 + ((v - 1) % 26)) + s;
  return s;
};
const columnNumber = (letter: string) => [...letter].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);

/** Step 2: the first rows as in Excel (column letters, row numbers, the title row marked) and how the table is laid out. */
export function PreviewStep() {
  const t = useT();
  const format = useFormat();
  const preview = useImportStore((s) => s.preview)!;
  const settings = useImportStore((s) => s.settings);
  const update = useImportStore((s) => s.update);
  const providers = useProvidersStore((s) => s.providers);
  const columns = useMemo(() => {
    const last = Math.max(1, ...preview.rows.flatMap((r) => Object.keys(r.cells).map(columnNumber)));
    return Array.from({ length: Math.min(last, 60) }, (_, i) => letters(i + 1));
  }, [preview]);
  const headerRow = settings.rowStart - 1;

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        useImportStore.getState().go('columns');
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600} data-testid="import-sheet">
            {t('import.preview.sheet', { sheet: preview.sheetName, file: preview.fileName ?? '' })}
          </Text>
          <Text size="sm" c="dimmed" data-testid="import-header-row">
            {t('import.preview.headerRow', { row: headerRow })}
          </Text>
        </Group>
        {preview.sheetNames.length > 1 && (
          <Text size="xs" c="dimmed">
            {t('import.preview.otherSheets', { names: preview.sheetNames.filter((n) => n !== preview.sheetName).join(', ') })}
          </Text>
        )}
        <Paper withBorder>
          <ScrollArea h={330} type="auto">
            <Table withColumnBorders striped={false} fz="xs" aria-label={t('import.preview.grid')} data-testid="import-preview-grid" stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={48}>{t('import.preview.row')}</Table.Th>
                  {columns.map((c) => (
                    <Table.Th key={c} ta="center" miw={80}>
                      {c}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.rows.map((r) => (
                  <Table.Tr
                    key={r.row}
                    data-testid={r.row === headerRow ? 'import-preview-header' : undefined}
                    style={{
                      background: r.row === headerRow ? 'var(--mantine-color-blue-light)' : undefined,
                      fontWeight: r.row === headerRow ? 600 : undefined,
                      opacity: r.row < headerRow || (settings.rowEnd !== undefined && r.row > settings.rowEnd) ? 0.5 : 1,
                    }}
                  >
                    <Table.Td c="dimmed">{r.row}</Table.Td>
                    {columns.map((c) => (
                      <Table.Td key={c} style={{ whiteSpace: 'nowrap', maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis' }} title={r.cells[c]}>
                        {r.dates?.[c] ? dateCellText(r.dates[c], format) : r.numbers?.[c] ? format.cellNumber(Number(r.numbers[c])) : (r.cells[c] ?? '')}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Paper>
        <Text size="xs" c="dimmed">
          {t('import.preview.headerHint')}
        </Text>
        <Title order={3} fz="md">
          {t('import.settings.title')}
        </Title>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" style={{ alignItems: 'end' }}>
          <Select
            label={t('import.settings.provider')}
            description={t('import.settings.providerHint')}
            data={providers.map((p) => ({ value: p.key, label: p.name }))}
            value={settings.providerKey || null}
            onChange={(v) => update({ providerKey: v ?? '' })}
            withAsterisk
            data-testid="import-provider"
          />
          <NumberInput label={t('import.settings.rowStart')} min={1} value={settings.rowStart} onChange={(v) => typeof v === 'number' && v >= 1 && update({ rowStart: v })} data-testid="import-row-start" />
          <NumberInput label={t('import.settings.rowEnd')} min={1} value={settings.rowEnd ?? ''} onChange={(v) => update({ rowEnd: typeof v === 'number' && v >= 1 ? v : undefined })} data-testid="import-row-end" />
          <Group grow gap="xs" align="flex-end">
            <Select
              label={t('import.settings.dateFormat')}
              data={formatChoices(dateFormats, settings.dateFormat, t)}
              value={settings.dateFormat}
              onChange={(v) => v && update({ dateFormat: v })}
              allowDeselect={false}
              data-testid="import-date-format"
            />
            <Select
              label={t('import.settings.timeFormat')}
              data={formatChoices(timeFormats, settings.timeFormat, t)}
              value={settings.timeFormat}
              onChange={(v) => v && update({ timeFormat: v })}
              allowDeselect={false}
              data-testid="import-time-format"
            />
          </Group>
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('import.settings.formatHint')}
        </Text>
        <Switch
          label={t('import.settings.itemsNewRow')}
          description={t(settings.itemsNewRow ? 'import.settings.itemsNewRowHintOn' : 'import.settings.itemsNewRowHintOff')}
          checked={settings.itemsNewRow}
          onChange={(e) => update({ itemsNewRow: e.currentTarget.checked })}
          data-testid="import-items-new-row"
        />
        <Switch label={t('import.settings.nameFormat')} checked={settings.nameFormat} onChange={(e) => update({ nameFormat: e.currentTarget.checked })} data-testid="import-name-format" />
        <StepButtons back="file" nextDisabled={!settings.providerKey || !settings.timeFormat.trim()} />
      </Stack>
    </form>
  );
}
