import { Alert, Radio, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { PrinterInfo } from '../../../shared/printing';
import { errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { usePrintSettingsStore, type PrintSettings } from '../../stores/print-settings-store';
import { getTransport } from '../../transport/current';
import { SectionCard } from './section-card';

const quarters = [1, 2, 3, 4] as const;

/**
 * Settings → Печать: the label format (thermal, A4 from a chosen quarter, ZPL), and in the desktop app
 * the printer and silent printing. Kept on this computer; every "Print labels" button uses it.
 */
export function PrintSection() {
  const t = useT();
  const settings = usePrintSettingsStore();
  const printer = getTransport().printer;
  const [printers, setPrinters] = useState<PrinterInfo[] | null>(null);
  const [printersError, setPrintersError] = useState<string | null>(null);

  useEffect(() => {
    if (!printer) return;
    void printer.list().then((answer) => {
      if (answer.ok) setPrinters(answer.value);
      else setPrintersError(errorTitle(answer.error, t));
    });
  }, [printer, t]);

  return (
    <SectionCard title={t('print.settings.title')} hint={t('print.settings.hint')} testId="print-section">
      <Stack gap="lg">
        <Radio.Group label={t('print.settings.size')} value={settings.layout} onChange={(v) => settings.change({ layout: v as PrintSettings['layout'] })}>
          <Stack gap="xs" mt="xs">
            <Radio value="thermal" label={t('print.settings.thermal')} data-testid="print-layout-thermal" />
            <Radio value="a4" label={t('print.settings.a4')} data-testid="print-layout-a4" />
            <Radio value="zpl" label={t('print.settings.zpl')} data-testid="print-layout-zpl" />
          </Stack>
        </Radio.Group>
        {settings.layout === 'a4' && (
          <Radio.Group
            label={t('print.settings.quarter')}
            description={t('print.settings.quarterHint')}
            value={String(settings.startQuarter)}
            onChange={(v) => settings.change({ startQuarter: Number(v) as PrintSettings['startQuarter'] })}
          >
            {/* The four quarters laid out as they sit on the sheet. */}
            <SimpleGrid cols={2} spacing="xs" mt="xs" maw={360}>
              {quarters.map((q) => (
                <Radio key={q} value={String(q)} label={t(`print.settings.quarter${q}`)} data-testid={`print-quarter-${q}`} />
              ))}
            </SimpleGrid>
          </Radio.Group>
        )}
        {printer ? (
          <Stack gap="sm">
            {printersError && (
              <Alert color="red" variant="light">
                {t('print.settings.noPrinters', { reason: printersError })}
              </Alert>
            )}
            <Select
              label={t('print.settings.printer')}
              maw={420}
              data={[{ value: '', label: t('print.settings.printerDefault') }, ...(printers ?? []).map((p) => ({ value: p.name, label: p.displayName }))]}
              value={settings.printer ?? ''}
              onChange={(v) => settings.change({ printer: v ? v : null })}
              allowDeselect={false}
              data-testid="print-printer"
            />
            <Switch label={t('print.settings.silent')} checked={settings.silent} onChange={(e) => settings.change({ silent: e.currentTarget.checked })} data-testid="print-silent" />
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('print.settings.browser')}
          </Text>
        )}
      </Stack>
    </SectionCard>
  );
}
