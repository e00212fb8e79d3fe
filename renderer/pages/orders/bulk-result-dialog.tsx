import { Button, Group, List, Modal, ScrollArea, Text } from '@mantine/core';
import type { BulkResult } from '../../../shared/contract/bulk';
import type { ErrorBody } from '../../../shared/errors';
import { statusNames, type StatusKey } from '../../../shared/status-keys';
import { errorTitle, messageByKey, withOrderNumber, type Naming } from '../../i18n/error-messages';
import { useServiceNaming } from '../../i18n/service-naming';
import type { Translate } from '../../i18n/types';
import { useLanguage, useT } from '../../i18n/use-t';

/** An order as the list showed it when the action ran: its number and status, to name a refusal. */
export interface ListedOrder {
  clientNumber: string;
  statusKey: StatusKey;
}

/**
 * Why one order was refused: the core's reason by key, the order named by its number and its status and service
 * by their names ("Заказ 4002 уже передан службе доставки (статус «Принят на склад…»)", the status by its message's
 * status kind, shared/messages/format.ts); only a refusal without a
 * key falls back to its kind. Never the wire's English.
 */
function refusalText(error: ErrorBody | undefined, listed: ListedOrder | undefined, t: Translate, naming: Naming): string {
  if (!error) return t('ordersList.bulk.failed');
  if (!error.key) return errorTitle(error, t);
  const named = withOrderNumber(error, listed?.clientNumber);
  return messageByKey({ key: error.key, params: named.params }, t, naming) || errorTitle(error, t);
}

interface BulkResultDialogProps {
  result: BulkResult | undefined;
  /** The listed orders by orderId, to name the failed ones as the user knows them, with the status they are in. */
  numbers: ReadonlyMap<string, ListedOrder>;
  onClose: () => void;
}

/** What a bulk action did: how many went through, and each refusal with its reason in the user's language. */
export function BulkResultDialog({ result, numbers, onClose }: BulkResultDialogProps) {
  const t = useT();
  const language = useLanguage();
  const naming = useServiceNaming();
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
                    const listed = numbers.get(r.orderId);
                    const status = listed && (statusNames[listed.statusKey]?.[language] ?? listed.statusKey);
                    return (
                      <List.Item key={r.orderId} data-testid="bulk-result-failure">
                        <Text span fw={600} fz="sm">
                          {t('ordersList.result.order', { number: listed?.clientNumber ?? r.orderId })}
                        </Text>
                        {status && (
                          <Text span c="dimmed" fz="sm">
                            {` (${status})`}
                          </Text>
                        )}
                        {': '}
                        {refusalText(r.error, listed, t, naming)}
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
