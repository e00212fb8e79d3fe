import { Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { OrderView } from '../../../shared/schemas/order-detail';
import { useFormat, useT } from '../../i18n/use-t';
import { DetailSection } from './detail-section';

/** The order's places with their items; "bought" shows what the recipient kept once the service reports it. */
export function OrderContents({ view }: { view: OrderView }) {
  const t = useT();
  const format = useFormat();
  const reported = view.places.some((p) => p.items.some((i) => i.quantityDelivered !== undefined));
  return (
    <DetailSection title={t('detail.section.contents')} testId="detail-contents">
      <Stack gap="sm">
        {view.places.map((place, pi) => (
          <div key={pi} data-testid="detail-place">
            <Group gap="xs" mb={4}>
              <Text fz="sm" fw={600}>
                {t('detail.place', { n: pi + 1 })}
                {place.placeNumber ? ` · ${place.placeNumber}` : ''}
              </Text>
              <Text fz="xs" c="dimmed" className="sd-numeric">
                {t('detail.placeWeight', { weight: format.count(place.weight) })}
                {place.length && place.width && place.height ? ` · ${place.length}×${place.width}×${place.height}` : ''}
              </Text>
            </Group>
            <Table withTableBorder withColumnBorders={false} verticalSpacing={4} horizontalSpacing="xs" fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('detail.item.description')}</Table.Th>
                  <Table.Th w={90}>{t('detail.item.articul')}</Table.Th>
                  <Table.Th w={56} ta="right">
                    {t('detail.item.quantity')}
                  </Table.Th>
                  {reported && (
                    <Table.Th w={76} ta="right">
                      {t('detail.item.delivered')}
                    </Table.Th>
                  )}
                  <Table.Th w={100} ta="right">
                    {t('detail.item.cost')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {place.items.map((item, ii) => (
                  <Table.Tr key={ii} data-testid="detail-item">
                    <Table.Td>{item.description}</Table.Td>
                    <Table.Td c="dimmed">{item.articul ?? ''}</Table.Td>
                    <Table.Td ta="right" className="sd-numeric">
                      {item.quantity}
                    </Table.Td>
                    {reported && (
                      <Table.Td ta="right" className="sd-numeric" data-testid="detail-item-delivered">
                        {item.quantityDelivered ?? (
                          <Text span fz="xs" c="dimmed">
                            {t('detail.item.deliveredUnknown')}
                          </Text>
                        )}
                      </Table.Td>
                    )}
                    <Table.Td ta="right" className="sd-numeric">
                      {item.cost !== undefined ? format.money(item.cost) : ''}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        ))}
      </Stack>
    </DetailSection>
  );
}

/** Assessed value, cash on delivery, the delivery charge the recipient pays and the service's price of the tariff. */
export function OrderCosts({ view }: { view: OrderView }) {
  const t = useT();
  const format = useFormat();
  const { cost } = view;
  const line = (label: string, value: number | undefined, testId: string) => (
    <Stack gap={0}>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" fw={600} className="sd-numeric" data-testid={testId}>
        {value !== undefined && value > 0 ? format.money(value) : t('detail.cost.none')}
      </Text>
    </Stack>
  );
  return (
    <DetailSection title={t('detail.section.costs')} testId="detail-costs">
      <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm">
        {line(t('detail.cost.assessed'), cost.assessedCost, 'detail-cost-assessed')}
        {line(t('detail.cost.cod'), cost.codCost, 'detail-cost-cod')}
        {line(t('detail.cost.delivery'), cost.deliveryCost, 'detail-cost-delivery')}
        {line(t('detail.cost.quoted'), cost.quotedDeliveryCost, 'detail-cost-quoted')}
      </SimpleGrid>
    </DetailSection>
  );
}
