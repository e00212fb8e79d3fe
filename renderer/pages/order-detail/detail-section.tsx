import { Box, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled block of the order drawer; the heading names the region for screen readers. */
export function DetailSection({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = `detail-${testId ?? title}`;
  return (
    <Box component="section" aria-labelledby={id} data-testid={testId}>
      <Title order={3} id={id} className="sd-section-legend">
        {title}
      </Title>
      {children}
    </Box>
  );
}
