import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import type { OrderView } from '../../../shared/schemas/order-detail';
import type { Address } from '../../../shared/schemas/order';
import type { PlainMessageKey } from '../../i18n/types';
import { useFormat, useT } from '../../i18n/use-t';
import { useDebouncedCommand } from '../../order-form/use-debounced-command';
import { Worktime } from '../../order-form/worktime';
import { DetailSection } from './detail-section';

/** An address as one line: the free-form one when given (led by the postcode when it does not hold it), else its parts from postcode to flat. */
export function addressLine(a: Address): string {
  if (a.addressString) return a.index && !a.addressString.includes(a.index) ? `${a.index}, ${a.addressString}` : a.addressString;
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

/**
 * A point of the order's service by its name, address and hours (looked up in the service's points);
 * its number alone while it loads or when the service no longer lists it.
 */
function OrderPoint({ providerKey, id, label, testId }: { providerKey: string; id: number; label: PlainMessageKey; testId: string }) {
  const t = useT();
  const found = useDebouncedCommand('lists.point', { providerKey, id }, 0);
  const point = found.status === 'ready' ? found.value : null;
  return (
    <Stack gap={0} data-testid={testId}>
      <Text fz="sm">
        <Text span c="dimmed" fz="sm">
          {`${t(label)}: `}
        </Text>
        {point ? `${point.name} · ${point.address}` : t('detail.point.byId', { id })}
      </Text>
      {point && <Worktime worktime={point.worktime} />}
    </Stack>
  );
}

/** Recipient and sender side by side, with the delivery the recipient gets and the office the shop brings the parcel to. */
export function OrderParties({ view }: { view: OrderView }) {
  const t = useT();
  const format = useFormat();
  const { order } = view;
  const toPoint = order.deliveryType === 2 && order.pointOutId !== undefined;
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Party title={t('detail.section.recipient')} address={view.recipient} testId="detail-recipient" />
        <Party title={t('detail.section.sender')} address={view.sender} testId="detail-sender" />
      </SimpleGrid>
      {toPoint ? (
        <OrderPoint providerKey={order.providerKey} id={order.pointOutId!} label="detail.delivery.toPoint" testId="detail-delivery" />
      ) : (
        <Text fz="sm" c="dimmed" data-testid="detail-delivery">
          {t('detail.delivery.door')}
          {order.deliveryTimeStart && order.deliveryTimeEnd
            ? ` · ${t('detail.delivery.interval', { date: order.deliveryDate ? format.date(order.deliveryDate) : '', from: order.deliveryTimeStart, to: order.deliveryTimeEnd })}`
            : ''}
        </Text>
      )}
      {order.pickupType === 2 && order.pointInId !== undefined && (
        <OrderPoint providerKey={order.providerKey} id={order.pointInId} label="detail.delivery.dropOff" testId="detail-dropoff" />
      )}
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
