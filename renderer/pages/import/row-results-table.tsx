import { Badge, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { UploadResultItem } from '../../../shared/schemas/upload';
import { useT } from '../../i18n/use-t';
import { providerName, useProvidersStore } from '../../stores/providers-store';
import { fieldTitle } from './columns-step';
import { isAlreadyImported, isFailed, rowErrorMessage } from './import-logic';

/** Rows shown at most; the errors file has them all. */
const maxShown = 1000;

/**
 * One line per order of the file: its sheet row, its number, and what became of it (the order, the draft,
 * or each error with its field). The dry run shows only the failed ones.
 */
export function RowResultsTable({ items, createdBefore, testId }: { items: readonly UploadResultItem[]; createdBefore?: ReadonlySet<string>; testId: string }) {
  const t = useT();
  const shown = items.slice(0, maxShown);
  return (
    <Stack gap={4}>
      <Paper withBorder>
        <ScrollArea.Autosize mah={420} type="auto">
          <Table fz="sm" verticalSpacing={4} stickyHeader data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={70}>{t('import.col.row')}</Table.Th>
                <Table.Th w={160}>{t('import.col.number')}</Table.Th>
                <Table.Th>{t('import.col.result')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((item) => (
                <Table.Tr key={`${item.row}-${item.clientNumber}`} data-testid="import-result-row" data-row={item.row} data-outcome={outcomeOf(item, createdBefore)}>
                  <Table.Td>{item.row}</Table.Td>
                  <Table.Td>{item.clientNumber}</Table.Td>
                  <Table.Td>
                    <Outcome item={item} createdBefore={createdBefore} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      </Paper>
      {items.length > maxShown && (
        <Text size="xs" c="dimmed">
          {t('import.result.more', { shown: maxShown, total: items.length })}
        </Text>
      )}
    </Stack>
  );
}

const outcomeOf = (item: UploadResultItem, createdBefore?: ReadonlySet<string>) =>
  createdBefore && isAlreadyImported(item, createdBefore) ? 'already' : isFailed(item) ? 'failed' : 'draftId' in item ? 'draft' : 'created';

function Outcome({ item, createdBefore }: { item: UploadResultItem; createdBefore?: ReadonlySet<string> }) {
  const t = useT();
  const providers = useProvidersStore((s) => s.providers);
  if (createdBefore && isAlreadyImported(item, createdBefore)) return <Badge variant="light" color="gray">{t('import.result.already')}</Badge>;
  if ('draftId' in item) return <Badge variant="light" color="blue">{t('import.result.draft')}</Badge>;
  if (!isFailed(item)) {
    return (
      <Text size="sm">
        <Badge variant="light" color="green" mr={6}>
          {t('import.result.order', { id: item.orderId })}
        </Badge>
        {item.providerNumber ? t('import.result.providerNumber', { number: item.providerNumber }) : <Text span c="dimmed" size="xs">{t('import.result.awaiting')}</Text>}
      </Text>
    );
  }
  if (item.errors.length === 0) {
    const canceled = item.message === 'Not imported';
    return (
      <Text size="sm" c={canceled ? 'dimmed' : 'red.8'}>
        {canceled ? t('import.result.notImported') : item.description || item.message}
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {item.errors.map((e, i) => (
        <Text key={i} size="sm" data-testid="import-row-error">
          <Text span fw={600}>
            {fieldTitle(e.field, t)}:
          </Text>{' '}
          <Text span c="red.8">
            {rowErrorMessage(e, t, (key) => providerName(providers, key))}
          </Text>
        </Text>
      ))}
    </Stack>
  );
}
