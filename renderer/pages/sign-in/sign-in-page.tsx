import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { ErrorBody } from '../../../shared/errors';
import { IconAlert, IconTruck } from '../../components/icons';
import { LanguagePicker } from '../../app/language-picker';
import { errorHint, errorTitle, messageByKey } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useSessionStore } from '../../stores/session-store';
import { signInProblem, type SignInProblem } from './sign-in-problem';

/** Browser mode without a session: a packer signs in with the name and password the owner gave them. */
export function SignInPage() {
  const t = useT();
  const ended = useSessionStore((s) => s.access === 'session-ended');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<SignInProblem | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !password) {
      setProblem({ kind: 'missing' });
      return;
    }
    setBusy(true);
    setProblem(undefined);
    const result = await useSessionStore.getState().signIn(name.trim(), password);
    setBusy(false);
    if (!result.ok) {
      setProblem(signInProblem(result.error as ErrorBody));
      setPassword('');
    }
  };

  return (
    <Center mih="100dvh" p="md" data-testid="sign-in-page">
      <Paper withBorder shadow="sm" p="xl" radius="md" maw={420} w="100%">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <ThemeIcon size={40} radius="md" variant="filled" aria-hidden>
              <IconTruck size={22} />
            </ThemeIcon>
            <Stack gap={4}>
              <Title order={2} fz="h3">
                {t('access.signIn.title')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('access.signIn.hint')}
              </Text>
            </Stack>
            {ended && !problem && (
              <Alert color="orange" variant="light" icon={<IconAlert size={18} />} data-testid="sign-in-ended">
                {t('access.signIn.ended')}
              </Alert>
            )}
            {problem && (
              <Alert color="red" variant="light" icon={<IconAlert size={18} />} role="alert" data-testid="sign-in-error">
                <ProblemText problem={problem} />
              </Alert>
            )}
            <TextInput
              label={t('access.signIn.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              autoComplete="username"
              autoFocus
              required
              error={problem?.kind === 'missing' && !name.trim()}
              data-testid="sign-in-name"
            />
            <PasswordInput
              label={t('access.signIn.password')}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              autoComplete="current-password"
              required
              error={problem?.kind === 'missing' && !password}
              data-testid="sign-in-password"
            />
            <Button type="submit" loading={busy} fullWidth data-testid="sign-in-submit">
              {t('access.signIn.submit')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('access.signIn.ownerLink')}
            </Text>
            <LanguagePicker />
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

function ProblemText({ problem }: { problem: SignInProblem }) {
  const t = useT();
  switch (problem.kind) {
    case 'missing':
      return <>{t('msg.required')}</>;
    case 'wrong':
      return <>{t('access.signIn.wrong')}</>;
    case 'too-many':
      return <>{(problem.wait && messageByKey(problem.wait, t)) || t('access.signIn.tooManySoon')}</>;
    case 'offline':
      return <>{t('access.signIn.offline')}</>;
    case 'other':
      return <>{t('access.signIn.failed', { reason: errorHint(problem.error, t) ?? errorTitle(problem.error, t) })}</>;
  }
}
