import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { IconCheck, IconCopy } from './icons';

/** A small button that copies a value (an order number, a barcode) to the clipboard; `what` names it for screen readers. */
export function CopyValue({ value, what, testId }: { value: string; what: string; testId?: string }) {
  const t = useT();
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('detail.copied') : t('detail.copy')} withArrow openDelay={300}>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} size="sm" onClick={copy} aria-label={t('detail.copyNumber', { what })} data-testid={testId}>
            {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
