import { Alert, Button, Group, Kbd, List, Stack, Text } from '@mantine/core';
import { useContext, useEffect, useMemo, useState } from 'react';
import { modKey } from '../app/platform';
import { IconAlert } from '../components/icons';
import { errorHint, errorTitle, fieldLabel, fieldMessage } from '../i18n/error-messages';
import { intlLocale } from '../i18n/translate';
import { useLanguage, useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { draftSaveState, subscribeDraftSaveState, type DraftSaveState } from './draft-autosave';
import { ClientErrorsContext } from './field-context';
import { visibleFieldPaths } from './form-values';

/** Sticky footer: why the order was refused, errors of fields the form does not show, the buttons. */
export function FormFooter() {
  const t = useT();
  const submitting = useOrderFormStore((s) => s.submitting);
  const close = useOrderFormStore((s) => s.close);
  const startNew = useOrderFormStore((s) => s.startNew);
  // Something to put aside: typing, or a draft opened from the list (not changes to an order already sent).
  const onDraft = useOrderFormStore((s) => (s.dirty || s.draftId !== null) && s.editingOrderId === null);
  const editing = useOrderFormStore((s) => s.editingOrderId !== null);
  return (
    <Stack gap={6} px="md" py="sm" className="sd-form-footer">
      <Failure />
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <DraftStatus />
        <Text size="xs" c="dimmed" visibleFrom="xs" ml="auto">
          {editing ? <EditShortcutHint /> : <ShortcutHint />}
        </Text>
      </Group>
      <Group justify="flex-end" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Button variant="subtle" onClick={() => void startNew()} disabled={submitting || !onDraft} data-testid="draft-and-new">
            {t('entry.draft.setAside')}
          </Button>
          <Button variant="default" onClick={close} disabled={submitting}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={submitting} data-testid="submit-order" aria-keyshortcuts="Control+Enter Meta+Enter">
            {editing ? t('form.submitEdit') : t('form.submit')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

function ShortcutHint() {
  const t = useT();
  const [before, first, second, after] = t('entry.shortcuts', { submit: '\u0000', save: '\u0000', close: '\u0000' }).split('\u0000');
  return (
    <>
      {before}
      <Kbd size="xs">{modKey}+Enter</Kbd>
      {first}
      <Kbd size="xs">{modKey}+S</Kbd>
      {second}
      <Kbd size="xs">Esc</Kbd>
      {after}
    </>
  );
}

/** Changing an order already sent: the same keys send the changes; there is no draft to save. */
function EditShortcutHint() {
  const t = useT();
  const [before, first, after] = t('entry.shortcutsEdit', { submit: '\u0000', close: '\u0000' }).split('\u0000');
  return (
    <>
      {before}
      <Kbd size="xs">{modKey}+Enter</Kbd>
      {first}
      <Kbd size="xs">Esc</Kbd>
      {after}
    </>
  );
}

/** Whether the typing is safe: "Draft saved 12:04", "Saving…", or that ShipDesk could not be reached or could not save it. */
function DraftStatus() {
  const t = useT();
  const language = useLanguage();
  const clock = useMemo(() => new Intl.DateTimeFormat(intlLocale(language), { timeStyle: 'short' }), [language]);
  const [state, setState] = useState<DraftSaveState>(draftSaveState);
  useEffect(() => subscribeDraftSaveState(setState), []);
  const text =
    state.status === 'saving'
      ? t('entry.draft.saving')
      : state.status === 'error'
        ? t(state.unsaved ? 'entry.draft.notSaved' : 'entry.draft.failed')
        : state.savedAt
          ? t('entry.draft.saved', { time: clock.format(new Date(state.savedAt)) })
          : undefined;
  if (!text) return null;
  return (
    <Text size="xs" c={state.status === 'error' ? 'orange' : 'dimmed'} data-testid="draft-status" aria-live="polite">
      {text}
    </Text>
  );
}

/** Errors that have no input on screen (e.g. `recipient.countryCode`), plus the core's refusal. */
function Failure() {
  const t = useT();
  const failure = useOrderFormStore((s) => s.failure);
  const serverErrors = useOrderFormStore((s) => s.serverErrors);
  const submitAttempted = useOrderFormStore((s) => s.submitAttempted);
  const values = useOrderFormStore((s) => s.values);
  const extraTypes = useOrderFormStore((s) => s.extraTypes);
  const clientErrors = useContext(ClientErrorsContext);

  const shown = new Set(visibleFieldPaths(values, Object.keys(extraTypes)));
  const hidden = Object.entries({ ...(submitAttempted ? clientErrors : {}), ...serverErrors }).filter(([path]) => !shown.has(path));
  if (!failure && hidden.length === 0) return null;

  // A refusal naming fields: each field says its own reason by key, so the wire's English summary of them is not repeated.
  const hint = failure && !failure.errors?.length ? errorHint(failure, t) : undefined;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlert size={18} />}
      title={failure ? `${t('form.failed')}: ${errorTitle(failure, t)}` : t('form.failed')}
      data-testid="order-form-error"
      role="alert"
      py="xs"
    >
      {hint && <Text size="sm">{hint}</Text>}
      {hidden.length > 0 && (
        <>
          {failure && (
            <Text size="sm" mt={4}>
              {t('form.otherFields')}
            </Text>
          )}
          <List size="sm" spacing={2} mt={4}>
            {hidden.map(([path, message]) => (
              <List.Item key={path}>
                <b>{fieldLabel(path, t)}</b>: {fieldMessage(message, t)}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Alert>
  );
}
