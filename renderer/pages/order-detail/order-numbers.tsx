import { Anchor, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import type { OrderView } from '../../../shared/schemas/order-detail';
import { Barcode } from '../../components/barcode';
import { CopyValue } from '../../components/copy-value';
import { IconExternalLink } from '../../components/icons';
import { useFormat, useT } from '../../i18n/use-t';
import { providerName, useProvidersStore } from '../../stores/providers-store';
import { tariffsOf } from '../../stores/tariffs';
import { DetailSection } from './detail-section';
import { safeHttpUrl } from './safe-url';

/** One labelled number; an empty one says it is not assigned yet, a given one can be copied. */
function NumberField({ label, value, testId, copy = true }: { label: string; value: string; testId: string; copy?: boolean }) {
  const t = useT();
  return (
    <Stack gap={0} miw={0}>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" miw={0}>
        {value ? (
          <Text fz="sm" fw={600} ff="monospace" className="sd-ellipsis" data-testid={testId} title={value}>
            {value}
          </Text>
        ) : (
          <Text fz="sm" c="dimmed" fs="italic" data-testid={testId}>
            {t('detail.notAssigned')}
          </Text>
        )}
        {value && copy && <CopyValue value={value} what={label} />}
      </Group>
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0} miw={0}>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" className="sd-ellipsis" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** The order's numbers here and at the delivery service, the tracking link and the barcode. */
export function OrderNumbers({ view }: { view: OrderView }) {
  const t = useT();
  const format = useFormat();
  const providers = useProvidersStore((s) => s.providers);
  const { order } = view;
  const tracking = safeHttpUrl(order.trackingUrl);
  return (
    <DetailSection title={t('detail.section.numbers')} testId="detail-numbers">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
        <NumberField label={t('detail.clientNumber')} value={order.clientNumber} testId="detail-client-number" />
        <NumberField label={t('detail.providerNumber')} value={order.providerNumber} testId="detail-provider-number" />
        {order.additionalProviderNumber && (
          <NumberField label={t('detail.additionalProviderNumber')} value={order.additionalProviderNumber} testId="detail-additional-number" />
        )}
        {order.returnProviderNumber && <NumberField label={t('detail.returnProviderNumber')} value={order.returnProviderNumber} testId="detail-return-number" />}
        <Field label={t('detail.service')}>{providerName(providers, order.providerKey)}</Field>
        <Field label={t('detail.tariff')}>
          <TariffName providerKey={order.providerKey} tariffId={order.tariffId} />
        </Field>
        <Field label={t('detail.created')}>{format.dateTime(order.created)}</Field>
      </SimpleGrid>
      {(tracking || order.barcode) && (
        <Group mt="sm" gap="lg" align="flex-end" wrap="wrap">
          {order.barcode && (
            <Stack gap={2}>
              <Group gap={4}>
                <Text fz="xs" c="dimmed">
                  {t('detail.barcode')}
                </Text>
                <CopyValue value={order.barcode} what={t('detail.barcode')} testId="detail-barcode-copy" />
              </Group>
              <Barcode value={order.barcode} label={t('detail.barcodeLabel', { value: order.barcode })} />
            </Stack>
          )}
          {tracking && (
            <Tooltip label={t('detail.trackingHint')} openDelay={400} withArrow>
              {/* A new browser tab in browser mode; the Electron shell hands https links to the system browser. */}
              <Anchor href={tracking} target="_blank" rel="noopener noreferrer" fz="sm" data-testid="detail-tracking">
                <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
                  <IconExternalLink size={15} />
                  {t('detail.tracking')}
                </span>
              </Anchor>
            </Tooltip>
          )}
        </Group>
      )}
    </DetailSection>
  );
}

/** The tariff by its name and id ("Экспресс дверь-дверь · 103"); the id alone until the list has come, or if the service no longer has it. */
function TariffName({ providerKey, tariffId }: { providerKey: string; tariffId: number }) {
  const [name, setName] = useState<string>();
  useEffect(() => {
    let current = true;
    void tariffsOf(providerKey).then((tariffs) => current && setName(tariffs.find((x) => x.id === tariffId)?.name));
    return () => {
      current = false;
    };
  }, [providerKey, tariffId]);
  return <span data-testid="detail-tariff">{name ? `${name} · ${tariffId}` : tariffId}</span>;
}
