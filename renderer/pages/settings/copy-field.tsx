import { Button, CopyButton, Group, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconCheck, IconCopy } from '../../components/icons';
import { useT } from '../../i18n/use-t';

/** A read-only value (a folder, an address, a token) with a copy button beside it. */
export function CopyField({ label, value, shown, description, extra, testId }: { label: string; value: string; shown?: string; description?: ReactNode; extra?: ReactNode; testId: string }) {
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        label={label}
        description={description}
        value={shown ?? value}
        readOnly
        style={{ flex: 1, minWidth: 0 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        onFocus={(e) => e.currentTarget.select()}
        data-testid={testId}
      />
      {extra}
      <CopyValueButton value={value} testId={`${testId}-copy`} />
    </Group>
  );
}

/** "Copy" beside a value the settings show; says "Copied" for a moment after. */
export function CopyValueButton({ value, testId }: { value: string; testId?: string }) {
  const t = useT();
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Button variant="default" color={copied ? 'teal' : undefined} leftSection={copied ? <IconCheck size={15} /> : <IconCopy size={15} />} onClick={copy} data-testid={testId}>
          {copied ? t('settings.copied') : t('settings.copy')}
        </Button>
      )}
    </CopyButton>
  );
}
