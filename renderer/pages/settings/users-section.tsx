import { Alert, Button, Center, Group, Loader, Modal, PasswordInput, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { User } from '../../../shared/contract/auth';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IconAlert, IconPlus } from '../../components/icons';
import { errorTitle, fieldMessage } from '../../i18n/error-messages';
import { useFormat, useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';
import { useUsersStore } from '../../stores/users-store';
import { SectionCard } from './section-card';
import { checkNewPassword, checkNewUser, refusalErrors } from './settings-forms';
import { toastFailure, toastSuccess } from './use-feedback';

type Dialog = { kind: 'add' } | { kind: 'password'; user: User } | { kind: 'revoke'; user: User } | { kind: 'remove'; user: User };

/** Settings → Users (the owner's): the packers who sign in from other computers. */
export function UsersSection() {
  const t = useT();
  const status = useUsersStore((s) => s.status);
  const users = useUsersStore((s) => s.users);
  const error = useUsersStore((s) => s.error);
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const close = () => setDialog(undefined);

  useEffect(() => {
    void useUsersStore.getState().load();
  }, []);

  const confirm = async () => {
    if (dialog?.kind !== 'revoke' && dialog?.kind !== 'remove') return;
    const { user } = dialog;
    setBusy(true);
    if (dialog.kind === 'revoke') {
      const result = await useUsersStore.getState().revokeSessions(user.id);
      if (result.ok) toastSuccess((tr) => tr('access.users.revokedToast', { name: user.name, count: result.value }));
      else toastFailure((tr) => tr('access.users.failed'), result.error);
    } else {
      const result = await useUsersStore.getState().remove(user.id);
      if (result.ok) toastSuccess((tr) => tr('access.users.removedToast', { name: user.name }));
      else toastFailure((tr) => tr('access.users.failed'), result.error);
    }
    setBusy(false);
    close();
  };

  return (
    <SectionCard
      title={t('access.users.title')}
      hint={t('access.users.hint')}
      testId="users-section"
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="user-add">
          {t('access.users.add')}
        </Button>
      }
    >
      {status === 'error' && error ? (
        <Alert color="red" variant="light" icon={<IconAlert size={18} />} title={t('access.users.loadFailed')} data-testid="users-load-error">
          {errorTitle(error, t)}
        </Alert>
      ) : status !== 'ready' ? (
        <Center h={120}>
          <Loader size="sm" />
        </Center>
      ) : users.length === 0 ? (
        <Text c="dimmed" fz="sm" data-testid="users-empty">
          {t('access.users.empty')}
        </Text>
      ) : (
        <UsersTable users={users} onAction={setDialog} />
      )}
      {dialog?.kind === 'add' && <UserDialog onClose={close} />}
      {dialog?.kind === 'password' && <UserDialog user={dialog.user} onClose={close} />}
      <ConfirmDialog
        opened={dialog?.kind === 'revoke' || dialog?.kind === 'remove'}
        title={dialog?.kind === 'revoke' ? t('access.users.revokeTitle', { name: dialog.user.name }) : dialog?.kind === 'remove' ? t('access.users.removeTitle', { name: dialog.user.name }) : ''}
        body={dialog?.kind === 'revoke' ? t('access.users.revokeBody') : t('access.users.removeBody')}
        confirmLabel={dialog?.kind === 'revoke' ? t('access.users.revokeConfirm') : t('access.users.removeConfirm')}
        keepLabel={t('access.users.cancel')}
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={close}
        testId="user-confirm"
      />
    </SectionCard>
  );
}

function UsersTable({ users, onAction }: { users: User[]; onAction: (dialog: Dialog) => void }) {
  const t = useT();
  const format = useFormat();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs" striped highlightOnHover data-testid="users-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('access.users.name')}</Table.Th>
            <Table.Th>{t('access.users.created')}</Table.Th>
            <Table.Th>{t('access.users.lastSignIn')}</Table.Th>
            <Table.Th>{t('access.users.sessions')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('access.users.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} data-testid="user-row" data-name={user.name}>
              <Table.Td fw={500}>{user.name}</Table.Td>
              <Table.Td>{format.dateTime(user.created)}</Table.Td>
              <Table.Td>{user.lastSignIn ? format.dateTime(user.lastSignIn) : t('access.users.never')}</Table.Td>
              <Table.Td data-testid="user-sessions">{user.activeSessions ? t('access.users.sessionsCount', { count: user.activeSessions }) : t('access.users.none')}</Table.Td>
              <Table.Td>
                <Group gap={6} justify="flex-end" wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => onAction({ kind: 'password', user })} data-testid="user-password">
                    {t('access.users.setPassword')}
                  </Button>
                  <Button size="xs" variant="light" color="orange" disabled={user.activeSessions === 0} onClick={() => onAction({ kind: 'revoke', user })} data-testid="user-revoke">
                    {t('access.users.revoke')}
                  </Button>
                  <Button size="xs" variant="subtle" color="red" onClick={() => onAction({ kind: 'remove', user })} data-testid="user-remove">
                    {t('access.users.remove')}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Adds a packer (name and password), or gives one a new password. */
function UserDialog({ user, onClose }: { user?: User; onClose: () => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = user ? checkNewPassword(user.id, password) : checkNewUser({ name, password });
    if (!checked.ok) return setErrors(checked.errors);
    setBusy(true);
    const store = useUsersStore.getState();
    const result = user ? await store.setPassword(user.id, password) : await store.create(name.trim(), password);
    setBusy(false);
    if (!result.ok) {
      const { description, message, key, params } = result.error;
      // "A packer named … already exists" names no field: it belongs to the name. Any other refusal is the
      // whole dialog's (a toast; a full disk or the database gone: the banner only), not the name's.
      const fields = key === 'access.nameTaken' ? { name: { message: description ?? message, key, params } } : refusalErrors(result.error);
      setErrors(fields);
      if (!Object.keys(fields).length) toastFailure((tr) => tr('access.users.failed'), result.error);
      return;
    }
    const shown = result.value.name;
    toastSuccess((tr) => (user ? tr('access.users.passwordToast', { name: shown }) : tr('access.users.addedToast', { name: shown })));
    onClose();
  };

  return (
    <Modal opened onClose={onClose} title={user ? t('access.users.passwordTitle', { name: user.name }) : t('access.users.addTitle')} centered size="sm" data-testid="user-dialog">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {user ? (
            <Text fz="sm" c="dimmed">
              {t('access.users.passwordBody')}
            </Text>
          ) : (
            <TextInput
              label={t('access.users.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name ? fieldMessage(errors.name, t) : undefined}
              autoComplete="off"
              data-autofocus
              data-testid="user-name"
            />
          )}
          <PasswordInput
            label={user ? t('access.users.newPassword') : t('access.users.password')}
            description={t('access.users.passwordHint')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password ? fieldMessage(errors.password, t) : undefined}
            autoComplete="new-password"
            data-autofocus={user ? true : undefined}
            data-testid="user-password-input"
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t('access.users.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="user-save">
              {t('access.users.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
