import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { postgresUrlSchema, type DatabaseCheck, type DatabaseState, type DatabaseWhere } from '../../../shared/contract/database';
import { IconAlert, IconCheck, IconInfo } from '../../components/icons';
import { errorTitle, fieldMessage } from '../../i18n/error-messages';
import type { Translate } from '../../i18n/types';
import { useT } from '../../i18n/use-t';
import { getTransport } from '../../transport/current';
import { splitPassword, withPassword } from './database-address';
import { SectionCard } from './section-card';
import { toastFailure, toastSuccess } from './use-feedback';

const whereText = (where: DatabaseWhere, t: Translate) =>
  where.engine === 'sqlite' ? t('database.sqlite', { file: where.file }) : t('database.postgres', { database: where.database, host: where.host, port: String(where.port), user: where.user });

const sameWhere = (a: DatabaseWhere, b: DatabaseWhere) => JSON.stringify(a) === JSON.stringify(b);

/** What a check found, in the user's language: green when ShipDesk can use it, red otherwise. */
function CheckResult({ check }: { check: DatabaseCheck }) {
  const t = useT();
  const usable = check.ok && check.supported && check.contents !== 'other';
  const text = !check.ok
    ? t(`database.problem.${check.problem}`, { detail: check.detail })
    : !check.supported
      ? t('database.checked.unsupported', { version: check.serverVersion })
      : t(`database.checked.${check.contents}`, { version: check.serverVersion, orders: String(check.orders ?? 0) });
  return (
    <Alert color={usable ? 'green' : 'red'} variant="light" icon={usable ? <IconCheck size={18} /> : <IconAlert size={18} />} p="sm" data-testid="database-check-result" data-usable={usable}>
      {text}
    </Alert>
  );
}

/** Settings → Database: the engine in use, and the owner's choice for the next start (a PostgreSQL server, checked first). */
export function DatabaseSection() {
  const t = useT();
  const [state, setState] = useState<DatabaseState | null>(null);
  // The address without its password, and the password in a field of its own (never shown as typed).
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [check, setCheck] = useState<DatabaseCheck | null>(null);
  const [busy, setBusy] = useState<'check' | 'save' | null>(null);

  useEffect(() => {
    void getTransport()
      .invoke('settings.database', {})
      .then((result) => result.ok && setState(result.value));
  }, []);

  /** The typed address, or null with the field's message shown. */
  const validUrl = (): string | null => {
    const parsed = postgresUrlSchema.safeParse(withPassword(url.trim(), password));
    setUrlError(parsed.success ? null : t('database.urlInvalid'));
    return parsed.success ? parsed.data : null;
  };

  const runCheck = async () => {
    const value = validUrl();
    if (!value) return;
    setBusy('check');
    setCheck(null);
    const result = await getTransport().invoke('settings.databaseCheck', { url: value });
    setBusy(null);
    if (result.ok) setCheck(result.value);
    else if (result.error.errors?.length) setUrlError(fieldMessage(result.error.errors[0], t));
    else toastFailure((tr) => errorTitle(result.error, tr), result.error);
  };

  const choose = async (choice: { engine: 'sqlite' } | { engine: 'postgres'; url: string }) => {
    setBusy('save');
    const result = await getTransport().invoke('settings.databaseChoose', choice);
    setBusy(null);
    if (result.ok) {
      setState(result.value);
      setUrl('');
      setPassword('');
      setCheck(null);
      toastSuccess((tr) => tr('database.saved'));
    } else toastFailure((tr) => tr('database.saveFailed'), result.error);
  };

  const save = () => {
    const value = validUrl();
    if (value) void choose({ engine: 'postgres', url: value });
  };

  const usable = check?.ok === true && check.supported && check.contents !== 'other';
  return (
    <SectionCard title={t('database.title')} hint={t('database.hint')} testId="database-section">
      {state && (
        <Stack gap={4}>
          <Text size="sm" data-testid="database-in-use">
            <Text span fw={600}>{t('database.inUse')}:</Text> {whereText(state.inUse, t)}
          </Text>
          <Text size="sm" data-testid="database-next">
            <Text span fw={600}>{t('database.next')}:</Text> {whereText(state.next, t)}
          </Text>
          {!sameWhere(state.inUse, state.next) && (
            <Alert color="yellow" variant="light" icon={<IconInfo size={18} />} p="sm" mt="xs" data-testid="database-restart">
              {t('database.restart')}
            </Alert>
          )}
        </Stack>
      )}
      <TextInput
        label={t('database.url')}
        description={t('database.urlHint')}
        placeholder="postgres://shipdesk@192.168.1.10:5432/shipdesk"
        value={url}
        onChange={(e) => {
          // A pasted address with its password: the password goes to its own field, hidden.
          const typed = splitPassword(e.currentTarget.value);
          setUrl(typed.address);
          if (typed.password !== null) setPassword(typed.password);
          setCheck(null);
          setUrlError(null);
        }}
        error={urlError}
        autoComplete="off"
        spellCheck={false}
        data-testid="database-url"
      />
      <PasswordInput
        label={t('database.password')}
        value={password}
        onChange={(e) => {
          setPassword(e.currentTarget.value);
          setCheck(null);
        }}
        autoComplete="new-password"
        data-testid="database-password"
      />
      {check && <CheckResult check={check} />}
      <Group gap="sm">
        <Button variant="default" onClick={() => void runCheck()} loading={busy === 'check'} disabled={busy !== null || !url.trim()} data-testid="database-check">
          {t('database.check')}
        </Button>
        <Button onClick={save} loading={busy === 'save'} disabled={busy !== null || !usable} data-testid="database-save">
          {t('database.save')}
        </Button>
        {state?.next.engine === 'postgres' && (
          <Button variant="subtle" onClick={() => void choose({ engine: 'sqlite' })} disabled={busy !== null} data-testid="database-use-sqlite">
            {t('database.useSqlite')}
          </Button>
        )}
      </Group>
    </SectionCard>
  );
}
