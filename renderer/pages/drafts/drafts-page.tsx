import { Alert, Box, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { IconAlert, IconCheck, IconRefresh } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useOrderFormStore } from '../../stores/order-form-store';
import { useOrdersStore } from '../../stores/orders-store';
import { useProvidersStore } from '../../stores/providers-store';
import { toastRefusal } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import { DraftsTable } from './drafts-table';
import { useDraftsStore } from './drafts-store';

/** The drafts page: saved order forms, last saved first; open, delete, or submit one or many. */
export function DraftsPage() {
  const t = useT();
  const status = useDraftsStore((s) => s.status);
  const total = useDraftsStore((s) => s.total);

  useEffect(() => {
    void useProvidersStore.getState().load();
    void useDraftsStore.getState().load();
    // Drafts submitted elsewhere (another window, the API) leave the list.
    return getTransport().onEvent((event) => {
      if (event.type.startsWith('draft')) useDraftsStore.getState().invalidate();
    });
  }, []);

  return (
    <Box h="calc(100dvh - var(--app-shell-header-offset, 48px))" style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }} data-testid="drafts-page">
      <Stack gap="xs" px="md" pt="md" pb="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="lg">
            {t('drafts.title')} {status === 'ready' && <Text span c="dimmed" fz="md">{total}</Text>}
          </Title>
          <Toolbar />
        </Group>
        <Text size="sm" c="dimmed">
          {t('drafts.hint')}
        </Text>
        <SubmitResult />
        <LoadError />
      </Stack>
      <Box style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
        {status === 'idle' || (status === 'loading' && total === 0) ? (
          <Center h="100%">
            <Loader size="sm" />
          </Center>
        ) : total === 0 && status === 'ready' ? (
          <Center h="60%">
            <Stack gap={4} align="center" data-testid="drafts-empty">
              <Text fw={600}>{t('drafts.empty.title')}</Text>
              <Text size="sm" c="dimmed">
                {t('drafts.empty.body')}
              </Text>
            </Stack>
          </Center>
        ) : (
          <DraftsTable />
        )}
      </Box>
    </Box>
  );
}

/** Submits drafts; the form's own draft is saved first so what is sent is what is on screen. */
export async function submitDrafts(ids: readonly string[]): Promise<void> {
  const form = useOrderFormStore.getState();
  if (form.draftId && ids.includes(form.draftId)) await form.draftHooks?.flush();
  const result = await useDraftsStore.getState().submit(ids);
  if (!result.ok) {
    const error = result.error;
    toastRefusal(error, { title: (t) => `${t('drafts.submitFailed')}: ${errorTitle(error, t)}`, message: (t) => errorHint(error, t) ?? '' });
    return;
  }
  // A draft that became an order is gone: the form must not bring it back on the next keystroke.
  const { failures } = useDraftsStore.getState();
  for (const id of ids) if (!failures[id]) useOrderFormStore.getState().forgetDraft(id);
  void useOrdersStore.getState().load();
}

function Toolbar() {
  const t = useT();
  const selected = useDraftsStore((s) => s.selected);
  const submitting = useDraftsStore((s) => s.submitting);
  const load = useDraftsStore((s) => s.load);
  return (
    <Group gap="xs" wrap="nowrap">
      <Button variant="default" size="xs" leftSection={<IconRefresh size={14} />} onClick={() => void load()}>
        {t('drafts.refresh')}
      </Button>
      <Button
        size="xs"
        leftSection={<IconCheck size={14} />}
        disabled={selected.size === 0}
        loading={submitting}
        onClick={() => void submitDrafts([...selected])}
        data-testid="drafts-submit-selected"
      >
        {t('drafts.submitSelected', { n: selected.size })}
      </Button>
    </Group>
  );
}

function SubmitResult() {
  const t = useT();
  const last = useDraftsStore((s) => s.lastSubmit);
  if (!last) return null;
  return (
    <Alert
      color={last.failed ? 'orange' : 'green'}
      variant="light"
      py={6}
      title={t('drafts.result', { created: last.created, failed: last.failed })}
      data-testid="drafts-result"
      role="status"
      withCloseButton
      onClose={() => useDraftsStore.setState({ lastSubmit: undefined })}
    >
      {last.failed > 0 && <Text size="xs">{t('drafts.resultHint')}</Text>}
    </Alert>
  );
}

function LoadError() {
  const t = useT();
  const error = useDraftsStore((s) => (s.status === 'error' ? s.error : undefined));
  const load = useDraftsStore((s) => s.load);
  if (!error) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlert size={18} />} title={`${t('drafts.loadError')}: ${errorTitle(error, t)}`} data-testid="drafts-error">
      <Group justify="space-between">
        <Text size="sm">{errorHint(error, t)}</Text>
        <Button size="xs" variant="light" onClick={() => void load()}>
          {t('drafts.retry')}
        </Button>
      </Group>
    </Alert>
  );
}
