import { Card, Group, Text, Title, UnstyledButton, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

/** One block of the screen: a title, an optional action on the right, its content. */
export function FigureCard({ title, hint, action, children, testId }: { title: string; hint?: string; action?: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Group justify="space-between" align="flex-start" mb="sm" wrap="nowrap">
        <div>
          <Title order={3} fz="md">
            {title}
          </Title>
          {hint && (
            <Text fz="xs" c="dimmed">
              {hint}
            </Text>
          )}
        </div>
        {action}
      </Group>
      {children}
    </Card>
  );
}

/** A big number with its label that opens the orders behind it. */
export function StatTile({ label, value, color, onOpen, testId }: { label: string; value: number; color?: MantineColor; onOpen: () => void; testId: string }) {
  return (
    <UnstyledButton onClick={onOpen} data-testid={testId} data-value={value} style={{ display: 'block' }}>
      <Card withBorder radius="md" padding="md" h="100%">
        <Text fz="sm" c="dimmed" fw={500}>
          {label}
        </Text>
        <Text fz={30} fw={700} c={value > 0 ? color : undefined} className="sd-numeric" lh={1.2}>
          {value}
        </Text>
      </Card>
    </UnstyledButton>
  );
}

/** Every bar list of the screen: compact bars whose names stay on one line even when the bar is short. */
export const barsListLook = {
  barHeight: 26,
  barTextColor: 'var(--mantine-color-text)',
  styles: { barLabel: { whiteSpace: 'nowrap', overflow: 'visible' } },
} as const;
