import { Alert, Button, Group, Kbd, List, Stack, Text } from '@mantine/core';
import { useContext } from 'react';
import { modKey } from '../app/platform';
import { IconAlert } from '../components/icons';
import { errorHint, errorTitle, fieldLabel, fieldMessage } from '../i18n/error-messages';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { ClientErrorsContext } from './field-context';
import { visibleFieldPaths } from './form-values';

/** Sticky footer: why the order was refused, errors of fields the form does not show, the buttons. */
export function FormFooter() {
  const t = useT();
  const submitting = useOrderFormStore((s) => s.submitting);
  const close = useOrderFormStore((s) => s.close);
  return (
    <Stack gap="sm" px="md" py="sm" className="sd-form-footer">
      <Failure />
      <Group justify="space-between" wrap="nowrap">
        <Text size="xs" c="dimmed" visibleFrom="xs">
          <ShortcutHint />
        </Text>
        <Group gap="sm" wrap="nowrap">
          <Button variant="default" onClick={close} disabled={submitting}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={submitting} data-testid="submit-order" aria-keyshortcuts="Control+Enter Meta+Enter">
            {t('form.submit')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

function ShortcutHint() {
  const t = useT();
  const [before, middle, after] = t('form.shortcuts', { submit: '\u0000', close: '\u0000' }).split('\u0000');
  return (
    <>
      {before}
      <Kbd size="xs">{modKey}+Enter</Kbd>
      {middle}
      <Kbd size="xs">Esc</Kbd>
      {after}
    </>
  );
}

/** Errors that have no input on screen (e.g. `recipient.countryCode`), plus the core's refusal. */
function Failure() {
  const t = useT();
  const failure = useOrderFormStore((s) => s.failure);
  const serverErrors = useOrderFormStore((s) => s.serverErrors);
  const submitAttempted = useOrderFormStore((s) => s.submitAttempted);
  const values = useOrderFormStore((s) => s.values);
  const clientErrors = useContext(ClientErrorsContext);

  const shown = new Set(visibleFieldPaths(values));
  const hidden = Object.entries({ ...(submitAttempted ? clientErrors : {}), ...serverErrors }).filter(([path]) => !shown.has(path));
  if (!failure && hidden.length === 0) return null;

  const hint = failure ? errorHint(failure, t) : undefined;
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
