import { Fieldset } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled group of fields; a real fieldset/legend so screen readers announce the group. */
export function FormSection({ legend, children, testId }: { legend: string; children: ReactNode; testId?: string }) {
  return (
    <Fieldset variant="unstyled" legend={legend} classNames={{ legend: 'sd-section-legend' }} data-testid={testId}>
      {children}
    </Fieldset>
  );
}
