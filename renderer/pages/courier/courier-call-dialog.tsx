import { Alert, Button, Divider, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { CourierCallCreateInput } from '../../../shared/schemas/courier-call';
import type { ErrorBody } from '../../../shared/errors';
import { errorTitle } from '../../i18n/error-messages';
import { useFormat, useT } from '../../i18n/use-t';
import { useProvidersStore } from '../../stores/providers-store';
import { useToastStore } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import { CourierCallsList } from './courier-calls-list';
import { courierProblemText, courierRefusalText } from './courier-messages';
import { DayInput } from '../../components/day-input';

interface CallForm {
  providerKey: string | null;
  providerConnectId: number | null;
  date: string;
  timeStart: string;
  timeEnd: string;
  postIndex: string;
  city: string;
  street: string;
  house: string;
  office: string;
  companyName: string;
  contactName: string;
  phone: string;
  weight: number | string;
  length: number | string;
  width: number | string;
  height: number | string;
  comment: string;
}

const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Tomorrow, or Monday when tomorrow is a Sunday: the first day a courier usually comes. */
function nextWorkingDay(now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  if (d.getDay() === 0) d.setDate(d.getDate() + 1);
  return isoDay(d);
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const optional = (v: string) => (v.trim() === '' ? undefined : v.trim());
const optionalNumber = (v: number | string) => (v === '' ? undefined : Number(v));

/**
 * "Вызвать курьера": the service, day and window, the pickup address and contact (filled from the default
 * sender profile), the chosen orders' weight and size, a comment. The answer shows at once; below, the
 * calls made so far with their state and the service's number, each cancelable.
 */
export function CourierCallDialog({ orderIds, onClose }: { orderIds: string[]; onClose: () => void }) {
  const t = useT();
  const format = useFormat();
  const providers = useProvidersStore((s) => s.providers);
  const takers = providers.filter((p) => p.capabilities.operations?.includes('courierCalls'));
  const [form, setForm] = useState<CallForm>({
    providerKey: null, providerConnectId: null, date: nextWorkingDay(), timeStart: '10:00', timeEnd: '14:00', postIndex: '', city: '', street: '', house: '', office: '',
    companyName: '', contactName: '', phone: '', weight: '', length: '', width: '', height: '', comment: '',
  });
  const [fromProfile, setFromProfile] = useState<boolean | undefined>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ title: string; detail?: string } | undefined>();
  const [reloadKey, setReloadKey] = useState(0);

  useEffect(() => {
    void useProvidersStore.getState().load();
    void (async () => {
      const answer = await getTransport().invoke('courier.prepare', { orderIds });
      if (!answer.ok) return;
      const draft = answer.value;
      const s = draft.sender ?? {};
      setFromProfile(draft.sender !== null);
      setForm((f) => ({
        ...f,
        providerKey: draft.providerKey ?? f.providerKey,
        providerConnectId: draft.providerConnectId,
        postIndex: text(s.index), city: text(s.city), street: text(s.street), house: text(s.house), office: text(s.office),
        companyName: text(s.companyName), contactName: text(s.contactName), phone: text(s.phone),
        weight: draft.weight || '', length: draft.length ?? '', width: draft.width ?? '', height: draft.height ?? '',
      }));
    })();
  }, [orderIds]);

  const set = <K extends keyof CallForm>(key: K, value: CallForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const field = (key: 'postIndex' | 'city' | 'street' | 'house' | 'office' | 'companyName' | 'contactName' | 'phone', required = false) => (
    <TextInput label={t(`courier.${key}`)} value={form[key]} onChange={(e) => set(key, e.currentTarget.value)} required={required} data-testid={`courier-${key}`} />
  );
  const size = (key: 'weight' | 'length' | 'width' | 'height') => (
    <NumberInput label={t(`courier.${key}`)} value={form[key]} onChange={(v) => set(key, v)} min={1} allowDecimal={false} required={key === 'weight'} data-testid={`courier-${key}`} />
  );

  const describe = (error: ErrorBody) => ({
    title: errorTitle(error, t),
    detail: courierRefusalText(error, t),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    const body: CourierCallCreateInput = {
      providerKey: form.providerKey ?? '',
      ...(form.providerConnectId !== null ? { providerConnectId: form.providerConnectId } : {}),
      date: form.date, timeStart: form.timeStart, timeEnd: form.timeEnd,
      weight: Number(form.weight || 0), length: optionalNumber(form.length), width: optionalNumber(form.width), height: optionalNumber(form.height),
      orderIds, countryCode: 'RU', postIndex: optional(form.postIndex), city: form.city, street: optional(form.street), house: optional(form.house), office: optional(form.office),
      companyName: optional(form.companyName), contactName: form.contactName, phone: form.phone, comment: optional(form.comment),
    };
    setBusy(true);
    const answer = await getTransport().invoke('courier.create', body);
    setBusy(false);
    setReloadKey((k) => k + 1);
    if (!answer.ok) return setProblem(describe(answer.error));
    const { providerNumber, error, errorMessage } = answer.value;
    if (error || !providerNumber) return setProblem({ title: t('courier.refused'), detail: error ? courierProblemText(error, errorMessage, t) : undefined });
    useToastStore.getState().push({ tone: 'success', title: (tr) => tr('courier.accepted', { number: providerNumber }) });
  };

  return (
    <Modal opened onClose={onClose} title={t('courier.title')} size="xl" data-testid="courier-dialog">
      <form onSubmit={(e) => void submit(e)}>
        <Stack gap="sm">
          {orderIds.length > 0 && (
            <Text size="sm" c="dimmed" data-testid="courier-orders">
              {t('courier.ordersChosen', { count: format.count(orderIds.length) })}
            </Text>
          )}
          {takers.length === 0 && providers.length > 0 && <Alert color="yellow">{t('courier.serviceNone')}</Alert>}
          <Select
            label={t('courier.service')}
            data={takers.map((p) => ({ value: p.key, label: p.name }))}
            value={form.providerKey}
            // The chosen orders' account belongs to their service only.
            onChange={(v) => setForm((f) => ({ ...f, providerKey: v, providerConnectId: null }))}
            required
            allowDeselect={false}
            data-testid="courier-service"
          />
          <SimpleGrid cols={3}>
            {/* The day and the times in the app's language (27.11.2026, 14:00): native boxes follow the operating system (11/28/2026, 02:00 PM). */}
            <DayInput label={t('courier.date')} value={form.date || null} onChange={(v) => set('date', v ?? '')} clearable={false} required data-testid="courier-date" />
            <TextInput label={t('courier.timeStart')} value={form.timeStart} onChange={(e) => set('timeStart', e.currentTarget.value)} placeholder="10:00" inputMode="numeric" maxLength={5} required data-testid="courier-timeStart" />
            <TextInput label={t('courier.timeEnd')} value={form.timeEnd} onChange={(e) => set('timeEnd', e.currentTarget.value)} placeholder="18:00" inputMode="numeric" maxLength={5} required data-testid="courier-timeEnd" />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {fromProfile === false ? t('courier.noProfile') : t('courier.fromProfile')}
          </Text>
          <SimpleGrid cols={4}>
            {field('postIndex')}
            {field('city', true)}
            {field('street')}
            <Group grow gap="xs">
              {field('house')}
              {field('office')}
            </Group>
          </SimpleGrid>
          <SimpleGrid cols={3}>
            {field('companyName')}
            {field('contactName', true)}
            {field('phone', true)}
          </SimpleGrid>
          <SimpleGrid cols={4}>
            {size('weight')}
            {size('length')}
            {size('width')}
            {size('height')}
          </SimpleGrid>
          <Textarea label={t('courier.comment')} value={form.comment} onChange={(e) => set('comment', e.currentTarget.value)} autosize minRows={1} data-testid="courier-comment" />
          {problem && (
            <Alert color="red" title={problem.title} data-testid="courier-problem">
              {problem.detail}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('courier.close')}
            </Button>
            <Button type="submit" loading={busy} disabled={!form.providerKey} data-testid="courier-submit">
              {t('courier.submit')}
            </Button>
          </Group>
          <Divider />
          <CourierCallsList reloadKey={reloadKey} />
        </Stack>
      </form>
    </Modal>
  );
}
