import { Button, Group, List, Modal, ScrollArea, Text } from '@mantine/core';
import type { BulkResult } from '../../../shared/contract/bulk';
import { errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';

interface BulkResultDialogProps {
  result: BulkResult | undefined;
  /** clientNumber by orderId, to name the failed orders as the user knows them. */
  numbers: ReadonlyMap<string, string>;
  onClose: () => void;
}

/** What a bulk action did: how many went through, and each refusal with its reason in the user's language. */
export function BulkResultDialog({ result, numbers, onClose }: BulkResultDialogProps) {
  const t = useT();
  const failed = result?.results.filter((r) => !r.ok) ?? [];
  return (
    <Modal opened={result !== undefined} onClose={onClose} title={result ? t(`ordersList.result.${result.action}`) : ''} centered size="md" data-testid="bulk-result">
      {result && (
        <>
          <Text fw={600} c={result.ok ? 'green' : 'dimmed'} data-testid="bulk-result-ok">
            {t('ordersList.result.ok', { count: result.ok })}
          </Text>
          {result.failed > 0 && (
            <>
              <Text fw={600} c="red" mt="xs" data-testid="bulk-result-failed">
                {t('ordersList.result.failed', { count: result.failed })}
              </Text>
              <ScrollArea.Autosize mah={260} mt="xs">
                <List size="sm" spacing={4}>
                  {failed.map((r) => {
                    return (
                      <List.Item key={r.orderId} data-testid="bulk-result-failure">
                        <Text span fw={600} fz="sm">
                          {t('ordersList.result.order', { number: numbers.get(r.orderId) ?? r.orderId })}
                        </Text>
                        {': '}
                        {r.error ? errorTitle(r.error, t) : t('ordersList.bulk.failed')}
                      </List.Item>
                    );
                  })}
                </List>
              </ScrollArea.Autosize>
            </>
          )}
          <Group justify="flex-end" mt="lg">
            <Button onClick={onClose} data-autofocus>
              {t('ordersList.result.close')}
            </Button>
          </Group>
        </>
      )}
    </Modal>
  );
}
