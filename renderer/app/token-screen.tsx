import { Alert, Center, Code, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlert, IconLink } from '../components/icons';
import { useT } from '../i18n/use-t';
import { LanguagePicker } from './language-picker';

/** Browser mode without a valid token: explain where the link comes from. */
export function TokenScreen({ rejected }: { rejected: boolean }) {
  const t = useT();
  // Split around the command so it can be set as code inside the translated sentence.
  const [before, after] = t('token.body', { command: '\u0000' }).split('\u0000');
  return (
    <Center mih="100dvh" p="md" data-testid="token-screen">
      <Paper withBorder shadow="sm" p="xl" radius="md" maw={520} w="100%">
        <Stack gap="md">
          <ThemeIcon size={40} radius="md" variant="light">
            <IconLink size={22} />
          </ThemeIcon>
          <Title order={2} fz="h3">
            {t('token.title')}
          </Title>
          {rejected && (
            <Alert color="orange" variant="light" icon={<IconAlert size={18} />} data-testid="token-rejected">
              {t('token.rejected')}
            </Alert>
          )}
          <Text>
            {before}
            <Code>npm start</Code>
            {after}
          </Text>
          <Code block fz="sm">
            {t('token.example')}
          </Code>
          <Text size="sm" c="dimmed">
            {t('token.privacy')}
          </Text>
          <LanguagePicker />
        </Stack>
      </Paper>
    </Center>
  );
}
