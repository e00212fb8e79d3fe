import { ActionIcon, Badge, Button, Checkbox, Group, List, Modal, Table, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { ErrorBody } from '../../../shared/errors';
import type { DraftSummary } from '../../../shared/schemas/drafts';
import { IconTrash } from '../../components/icons';
import { errorTitle, fieldLabel, fieldMessage } from '../../i18n/error-messages';
import { useFormat, useT } from '../../i18n/use-t';
import { useOrderFormStore } from '../../stores/order-form-store';
import { providerName, useProvidersStore } from '../../stores/providers-store';
import { toastRefusal, useToastStore } from '../../stores/toast-store';
import { submitDrafts } from './drafts-page';
import { useDraftsStore } from './drafts-store';

/** How many field errors of a refused draft the row lists before "and N more". */
const errorsShown = 3;

/** The drafts, last saved first: select, open, submit, delete; a refused submit shows its reasons in the row. */
export function DraftsTable() {
  const t = useT();
  const rows = useDraftsStore((s) => s.rows);
  const selected = useDraftsStore((s) => s.selected);
  const setAll = useDraftsStore((s) => s.setAll);
  const [confirming, setConfirming] = useState<DraftSummary>();
  const all = rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <>
      <Table striped highlightOnHover verticalSpacing={6} horizontalSpacing="sm" stickyHeader data-testid="drafts-table">
        <Table.Thead style={{ whiteSpace: 'nowrap' }}>
          <Table.Tr>
            <Table.Th w={36}>
              <Checkbox
                size="xs"
                aria-label={t('drafts.selectAll')}
                checked={all}
                indeterminate={!all && selected.size > 0}
                onChange={(e) => setAll(e.currentTarget.checked)}
              />
            </Table.Th>
            <Table.Th>{t('drafts.col.recipient')}</Table.Th>
            <Table.Th>{t('drafts.col.number')}</Table.Th>
            <Table.Th>{t('drafts.col.service')}</Table.Th>
            <Table.Th>{t('drafts.col.saved')}</Table.Th>
            <Table.Th>{t('drafts.col.problems')}</Table.Th>
            <Table.Th w={190} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <DraftRow key={row.id} row={row} onDelete={() => setConfirming(row)} />
          ))}
        </Table.Tbody>
      </Table>
      <ConfirmDelete draft={confirming} onDone={() => setConfirming(undefined)} />
    </>
  );
}

const nameOf = (row: DraftSummary, fallback: string) => row.recipient ?? row.clientNumber ?? fallback;

function DraftRow({ row, onDelete }: { row: DraftSummary; onDelete: () => void }) {
  const t = useT();
  const { dateTime } = useFormat();
  const checked = useDraftsStore((s) => s.selected.has(row.id));
  const failure = useDraftsStore((s) => s.failures[row.id]);
  const submitting = useDraftsStore((s) => s.submitting);
  const toggle = useDraftsStore((s) => s.toggle);
  const providers = useProvidersStore((s) => s.providers);
  const openDraft = useOrderFormStore((s) => s.openDraft);
  const editing = useOrderFormStore((s) => s.draftId === row.id);
  const name = nameOf(row, t('drafts.unnamed'));
  const open = async () => {
    if (!(await openDraft(row.id, failure))) void useDraftsStore.getState().load();
  };
  return (
    <Table.Tr data-testid="draft-row" data-draft-id={row.id}>
      <Table.Td>
        <Checkbox size="xs" checked={checked} onChange={() => toggle(row.id)} aria-label={t('drafts.select', { name })} data-testid="draft-select" />
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500} c={row.recipient ? undefined : 'dimmed'}>
          {name}
        </Text>
        {editing && (
          <Badge size="xs" variant="light" radius="sm">
            {t('drafts.editing')}
          </Badge>
        )}
      </Table.Td>
      <Table.Td className="sd-numeric">{row.clientNumber ?? '—'}</Table.Td>
      <Table.Td>{row.providerKey ? (row.serviceName ?? providerName(providers, row.providerKey)) : '—'}</Table.Td>
      <Table.Td className="sd-numeric">{dateTime(row.updated)}</Table.Td>
      <Table.Td>{failure ? <FailureCell error={failure} /> : null}</Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Button size="xs" variant="light" onClick={() => void open()} data-testid="draft-open">
            {t('drafts.open')}
          </Button>
          <Button size="xs" variant="subtle" onClick={() => void submitDrafts([row.id])} disabled={submitting} data-testid="draft-submit">
            {t('form.submit')}
          </Button>
          <Tooltip label={t('drafts.delete')} openDelay={300}>
            <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={`${t('drafts.delete')}: ${name}`} data-testid="draft-delete">
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function FailureCell({ error }: { error: ErrorBody }) {
  const t = useT();
  const errors = error.errors ?? [];
  return (
    <div data-testid="draft-failure">
      <Text size="xs" c="red" fw={600}>
        {t('drafts.notCreated')}: {errorTitle(error, t)}
      </Text>
      {errors.length > 0 && (
        <List size="xs" spacing={0} c="red">
          {errors.slice(0, errorsShown).map((e) => (
            <List.Item key={e.field}>
              {fieldLabel(e.field, t)}: {fieldMessage(e, t)}
            </List.Item>
          ))}
          {errors.length > errorsShown && <List.Item>{t('drafts.moreErrors', { n: errors.length - errorsShown })}</List.Item>}
        </List>
      )}
    </div>
  );
}

function ConfirmDelete({ draft, onDone }: { draft: DraftSummary | undefined; onDone: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const remove = useDraftsStore((s) => s.remove);
  const confirm = async () => {
    if (!draft) return;
    setBusy(true);
    const result = await remove(draft.id);
    setBusy(false);
    onDone();
    if (result.ok) {
      useOrderFormStore.getState().forgetDraft(draft.id);
      useToastStore.getState().push({ tone: 'info', title: (tt) => tt('drafts.deleted') });
    } else {
      const error = result.error;
      toastRefusal(error, { title: (tt) => `${tt('drafts.deleteFailed')}: ${errorTitle(error, tt)}` });
    }
  };
  return (
    <Modal opened={draft !== undefined} onClose={onDone} title={t('drafts.confirm.title')} centered size="sm" data-testid="draft-delete-confirm">
      <Text size="sm">{t('drafts.confirm.body', { name: draft ? nameOf(draft, t('drafts.unnamed')) : '' })}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onDone} data-autofocus>
          {t('drafts.confirm.cancel')}
        </Button>
        <Button color="red" loading={busy} onClick={() => void confirm()} data-testid="draft-delete-confirm-button">
          {t('drafts.confirm.delete')}
        </Button>
      </Group>
    </Modal>
  );
}
