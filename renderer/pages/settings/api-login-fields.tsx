import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { fieldMessage } from '../../i18n/error-messages';
import { useEffect, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useApiLoginStore } from '../../stores/api-login-store';
import { checkApiLogin, refusalErrors } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';
import { CodeText } from '../../components/code-text';

/**
 * The company's API login and password: what an existing integration (the aggregator's PHP SDK with its
 * default adapter) sends to POST /login for the token. The password is never shown back.
 */
export function ApiLoginFields() {
  const t = useT();
  const current = useApiLoginStore((s) => s.login);
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void useApiLoginStore
      .getState()
      .load()
      .then(() => setLogin(useApiLoginStore.getState().login ?? ''));
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkApiLogin({ login, password });
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setBusy(true);
    const result = await useApiLoginStore.getState().set(checked.value);
    setBusy(false);
    if (result.ok) {
      setPassword('');
      toastSuccess((tr) => tr('settings.api.loginSaved'));
    } else {
      setErrors(refusalErrors(result.error));
      toastFailure((tr) => tr('settings.saveFailed'), result.error);
    }
  };

  const clear = async () => {
    setBusy(true);
    const result = await useApiLoginStore.getState().clear();
    setBusy(false);
    if (result.ok) {
      setLogin('');
      setPassword('');
      toastSuccess((tr) => tr('settings.api.loginCleared'));
    } else toastFailure((tr) => tr('settings.saveFailed'), result.error);
  };

  const message = (field: string) => (errors[field] ? fieldMessage(errors[field], t) : undefined);
  return (
    <form onSubmit={(e) => void save(e)} noValidate data-testid="api-login">
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {t('settings.api.loginTitle')}
        </Text>
        <Text size="sm" c="dimmed" data-testid="api-login-state">
          <CodeText text={current ? t('settings.api.loginSet', { login: current }) : t('settings.api.loginNone')} />
        </Text>
        <Group align="flex-start" grow>
          <TextInput label={t('settings.api.login')} description={t('settings.api.loginHint')} value={login} onChange={(e) => setLogin(e.currentTarget.value)} error={message('login')} autoComplete="off" data-testid="api-login-name" />
          <PasswordInput
            label={t('settings.api.password')}
            description={t('settings.api.passwordHint')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={message('password')}
            autoComplete="new-password"
            data-testid="api-login-password"
          />
        </Group>
        <Group>
          <Button type="submit" loading={busy} data-testid="api-login-save">
            {t('settings.api.loginSave')}
          </Button>
          {current ? (
            <Button variant="subtle" color="red" disabled={busy} onClick={() => void clear()} data-testid="api-login-clear">
              {t('settings.api.loginClear')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
