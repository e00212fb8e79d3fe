import { Group, Text, ThemeIcon } from '@mantine/core';
import { columnSizingFeature, columnVisibilityFeature, createColumnHelper, tableFeatures, type ColumnVisibilityState } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { ProviderInfo } from '../../../shared/contract/providers';
import type { OrderSortKey, OrderSummary } from '../../../shared/schemas/orders-list';
import { StatusBadge } from '../../components/status-badge';
import { IconTruck } from '../../components/icons';
import { statusWords, type Naming } from '../../i18n/error-messages';
import type { Formatters } from '../../i18n/format';
import type { PlainMessageKey, Translate } from '../../i18n/types';
import { providerName } from '../../stores/providers-store';

/** What a cell needs besides its order. */
export interface CellContext {
  t: Translate;
  format: Formatters;
  providers: readonly ProviderInfo[];
  /** How a message by key names a service. */
  naming: Naming;
}

interface OrderColumnMeta {
  label: PlainMessageKey;
  /** The list's sort key when a click on the header sorts by this column. */
  sortKey?: OrderSortKey;
  align?: 'right';
  /** Shown only while the list shows the orders that need attention (and not offered in the column menu). */
  attentionView?: boolean;
  /** A cell's content; its `title` is what a narrow cell cuts off. */
  render: (order: OrderSummary, ctx: CellContext) => { content: ReactNode; title?: string };
}

const Dash = ({ title }: { title?: string }) => (
  <Text span c="dimmed" title={title}>
    —
  </Text>
);

/**
 * The data columns, in order, with fixed widths (the table is fixed-layout, so rows fetched later never
 * shift the columns; a wider window shares the extra width among them). A cell's value wraps onto a second
 * line rather than be cut: the default set fits a 1366-px-wide window with whole numbers such as
 * «OE-2026-11-000123», cities, names, dates and statuses (short status names; test/e2e/whole-values.test.ts).
 */
export const orderColumnDefs: ReadonlyArray<{ id: string; width: number; hideable: boolean; meta: OrderColumnMeta }> = [
  {
    id: 'clientNumber',
    width: 116,
    hideable: false,
    meta: {
      label: 'orders.col.clientNumber',
      sortKey: 'clientNumber',
      render: (o) => ({ content: <Text span fw={600} fz="inherit">{o.clientNumber}</Text>, title: o.clientNumber }),
    },
  },
  {
    id: 'recipient',
    width: 175,
    hideable: true,
    meta: { label: 'orders.col.recipient', render: (o) => ({ content: o.recipientName, title: `${o.recipientName}, ${o.recipientPhone}` }) },
  },
  {
    id: 'phone',
    width: 130,
    hideable: true,
    meta: { label: 'ordersList.col.phone', render: (o) => ({ content: o.recipientPhone, title: o.recipientPhone }) },
  },
  {
    id: 'city',
    width: 132,
    hideable: true,
    meta: { label: 'orders.col.city', render: (o) => ({ content: o.recipientCity ?? <Dash />, title: o.recipientCity ?? undefined }) },
  },
  {
    id: 'service',
    width: 128,
    hideable: true,
    meta: {
      label: 'orders.col.service',
      render: (o, { providers }) => {
        const name = providerName(providers, o.providerKey);
        return { content: name, title: name };
      },
    },
  },
  {
    id: 'providerNumber',
    width: 111,
    hideable: true,
    meta: {
      label: 'orders.col.providerNumber',
      render: (o, { t }) => ({
        content: o.providerNumber ? <Text span ff="monospace" fz="xs">{o.providerNumber}</Text> : <Dash title={t('orders.pending')} />,
        title: o.providerNumber ?? undefined,
      }),
    },
  },
  {
    id: 'status',
    width: 168,
    hideable: false,
    meta: {
      label: 'orders.col.status',
      sortKey: 'status',
      render: (o, ctx) => ({
        content: o.awaitingHandover ? (
          <Group gap={4} wrap="nowrap">
            <StatusBadge statusKey={o.statusKey} description={statusWords(o, ctx.t, ctx.naming)} compact />
            {/* A marker, not a word: the status beside it must fit the column whole. */}
            <ThemeIcon size={18} variant="light" color="orange" radius="sm" title={ctx.t('dispatch.notHandedOver')} aria-label={ctx.t('dispatch.notHandedOver')} data-testid="not-handed-over">
              <IconTruck size={12} />
            </ThemeIcon>
          </Group>
        ) : (
          <StatusBadge statusKey={o.statusKey} description={statusWords(o, ctx.t, ctx.naming)} compact />
        ),
      }),
    },
  },
  {
    id: 'reason',
    width: 300,
    hideable: false,
    meta: {
      label: 'attention.reasonColumn',
      attentionView: true,
      render: (o, { t, naming }) => {
        if (!o.attentionReason) return { content: <Dash /> };
        const reason = t(`attention.reason.${o.attentionReason}`);
        const words = statusWords(o, t, naming);
        return {
          content: (
            <Text span fz="inherit" data-testid="attention-reason" data-reason={o.attentionReason}>
              <Text span c="red" fw={600} fz="inherit">
                {reason}
              </Text>
              {words && (
                <Text span c="dimmed" fz="inherit" data-free-text>
                  {` · ${words}`}
                </Text>
              )}
            </Text>
          ),
          title: words ? `${reason}: ${words}` : reason,
        };
      },
    },
  },
  {
    id: 'cod',
    width: 96,
    hideable: true,
    meta: {
      label: 'orders.col.cod',
      sortKey: 'cod',
      align: 'right',
      render: (o, { t, format }) => ({ content: o.codCost > 0 ? format.money(o.codCost) : <Dash title={t('orders.noCod')} /> }),
    },
  },
  {
    id: 'delivery',
    width: 85,
    hideable: true,
    meta: {
      label: 'ordersList.col.delivery',
      align: 'right',
      render: (o, { t, format }) => ({
        content: o.quotedDeliveryCost !== null ? format.money(o.quotedDeliveryCost) : <Dash title={t('ordersList.noQuote')} />,
        title: o.deliveryCost ? t('ordersList.deliveryCharged', { price: format.money(o.deliveryCost) }) : undefined,
      }),
    },
  },
  {
    id: 'created',
    width: 100,
    hideable: true,
    meta: {
      label: 'orders.col.created',
      sortKey: 'created',
      render: (o, { format }) => ({ content: <Text span c="dimmed" fz="inherit">{format.dateTime(o.created)}</Text> }),
    },
  },
];

/** Width of the checkbox column. */
export const selectColumnWidth = 44;

export const orderTableFeatures = tableFeatures({ columnVisibilityFeature, columnSizingFeature });
const helper = createColumnHelper<typeof orderTableFeatures, OrderSummary>();

/**
 * TanStack Table column definitions: the table owns which columns are visible and their sizes; the
 * cells are rendered from `meta.render` for the rows of the visible window (see orders-table.tsx).
 */
export const orderTableColumns = helper.columns(
  orderColumnDefs.map((c) =>
    helper.display({ id: c.id, size: c.width, enableHiding: c.hideable, meta: c.meta as never }),
  ),
);

/** The meta of a column by id. */
export const columnMeta = (id: string): OrderColumnMeta | undefined => orderColumnDefs.find((c) => c.id === id)?.meta;

/** Columns shown until the user chooses otherwise: the phone sits in the recipient's tooltip. */
export const defaultColumnVisibility: ColumnVisibilityState = { phone: false, reason: false };

const storageKey = 'shipdesk.orders.columns';

/** The user's column choice from the last session (unknown or broken entries are ignored). */
export function loadColumnVisibility(): ColumnVisibilityState {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    if (!raw || typeof raw !== 'object') return defaultColumnVisibility;
    const known = orderColumnDefs.filter((c) => c.hideable).map((c) => c.id);
    const choice = Object.fromEntries(
      Object.entries(raw as Record<string, unknown>).filter(([id, shown]) => known.includes(id) && typeof shown === 'boolean'),
    ) as ColumnVisibilityState;
    return { ...defaultColumnVisibility, ...choice };
  } catch {
    return defaultColumnVisibility;
  }
}

/** Remembers the column choice for the next session. */
export function saveColumnVisibility(visibility: ColumnVisibilityState): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(visibility));
  } catch {
    // Storage full or disabled: the choice lasts for this session only.
  }
}
