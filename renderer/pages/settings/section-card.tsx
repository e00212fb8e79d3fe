import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled block of the settings with a short explanation and optional actions on the right. */
export function SectionCard({ title, hint, actions, children, testId }: { title: string; hint?: string; actions?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="lg" data-testid={testId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Title order={3} fz="md">
              {title}
            </Title>
            {hint && (
              <Text size="sm" c="dimmed">
                {hint}
              </Text>
            )}
          </Stack>
          {actions && <div style={{ flexShrink: 0 }}>{actions}</div>}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
