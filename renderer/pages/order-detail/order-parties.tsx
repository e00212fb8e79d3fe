import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import type { OrderView } from '../../../shared/schemas/order-detail';
import type { Address } from '../../../shared/schemas/order';
import { useT } from '../../i18n/use-t';
import { DetailSection } from './detail-section';

/** An address as one line: the free-form one when given, else its parts from postcode to flat. */
export function addressLine(a: Address): string {
  if (a.addressString) return a.addressString;
  return [a.index, a.region, a.city, a.street, a.house, a.block, a.office].filter((part) => part && part.trim() !== '').join(', ');
}

function Party({ title, address, testId }: { title: string; address: Address; testId: string }) {
  return (
    <DetailSection title={title} testId={testId}>
      <Stack gap={2}>
        <Text fz="sm" fw={600}>
          {address.contactName}
          {address.companyName && (
            <Text span fz="sm" c="dimmed" fw={400}>
              {` · ${address.companyName}`}
            </Text>
          )}
        </Text>
        <Anchor href={`tel:${address.phone.replace(/[^\d+]/g, '')}`} fz="sm" c="inherit" className="sd-numeric" w="fit-content">
          {address.phone}
        </Anchor>
        {address.email && (
          <Text fz="sm" c="dimmed">
            {address.email}
          </Text>
        )}
        <Text fz="sm">{addressLine(address)}</Text>
      </Stack>
    </DetailSection>
  );
}

/** Recipient and sender side by side, with the delivery the recipient gets. */
export function OrderParties({ view }: { view: OrderView }) {
  const t = useT();
  const { order } = view;
  const delivery =
    order.deliveryType === 2 && order.pointOutId ? t('detail.delivery.point', { id: order.pointOutId }) : t('detail.delivery.door');
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Party title={t('detail.section.recipient')} address={view.recipient} testId="detail-recipient" />
        <Party title={t('detail.section.sender')} address={view.sender} testId="detail-sender" />
      </SimpleGrid>
      <Text fz="sm" c="dimmed" data-testid="detail-delivery">
        {delivery}
        {order.deliveryTimeStart && order.deliveryTimeEnd
          ? ` · ${t('detail.delivery.interval', { date: order.deliveryDate ?? '', from: order.deliveryTimeStart, to: order.deliveryTimeEnd })}`
          : ''}
      </Text>
      {order.comment && (
        <Text fz="sm">
          <Text span c="dimmed" fz="sm">
            {`${t('detail.comment')}: `}
          </Text>
          {order.comment}
        </Text>
      )}
    </Stack>
  );
}
