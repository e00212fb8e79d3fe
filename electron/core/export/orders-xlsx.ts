import type { z } from 'zod';
import type { exportFilterSchema } from '../../../shared/contract/bulk';
import { toRubles } from '../../../shared/money';
import { statusNames, type StatusKey } from '../../../shared/status-keys';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import type { ProviderRegistry } from '../providers/registry';
import type { ListedOrder, OrdersStore } from '../store/orders/orders-store';

type Lang = 'ru' | 'en';

/** The orders list's columns, in its order. */
const columns: { key: string; ru: string; en: string; width: number }[] = [
  // The shop's own number leads under the name a shop reads as its order number; ShipDesk's id follows it.
  { key: 'clientNumber', ru: 'Номер заказа', en: 'Order number', width: 18 },
  { key: 'orderId', ru: 'ID в ShipDesk', en: 'ShipDesk ID', width: 12 },
  { key: 'service', ru: 'Служба доставки', en: 'Delivery service', width: 22 },
  { key: 'providerNumber', ru: 'Номер в службе', en: 'Service number', width: 18 },
  { key: 'status', ru: 'Статус', en: 'Status', width: 28 },
  { key: 'statusDescription', ru: 'Пояснение к статусу', en: 'Status details', width: 30 },
  { key: 'recipientName', ru: 'Получатель', en: 'Recipient', width: 26 },
  { key: 'recipientPhone', ru: 'Телефон', en: 'Phone', width: 16 },
  { key: 'recipientCity', ru: 'Город', en: 'City', width: 18 },
  { key: 'codCost', ru: 'Наложенный платёж, ₽', en: 'Cash on delivery, RUB', width: 14 },
  { key: 'quotedDeliveryCost', ru: 'Доставка по тарифу, ₽', en: 'Delivery price, RUB', width: 14 },
  { key: 'deliveryCost', ru: 'Доставка с получателя, ₽', en: 'Delivery charged to recipient, RUB', width: 14 },
  { key: 'created', ru: 'Создан', en: 'Created', width: 18 },
];

/** The company's orders by ids (in the order given) or by the list filter (newest first, like the list). */
function ordersFor(store: OrdersStore, ctx: CallContext, input: { orderIds?: string[]; filter?: z.output<typeof exportFilterSchema> }): Promise<ListedOrder[]> {
  if (input.orderIds) return store.listedOrders(ctx.companyId, { orderIds: input.orderIds.filter((id) => /^[1-9]\d{0,14}$/.test(id.trim())).map((id) => Number(id.trim())) });
  // The list's own filter, so the workbook holds exactly the orders the list shows.
  return store.listedOrders(ctx.companyId, { filter: input.filter ?? {} });
}

const rublesOrNull = (kopecks: number | null) => (kopecks === null ? null : toRubles(kopecks));

/**
 * A moment as an Excel date of the shop's local time: a spreadsheet date has no time zone, and exceljs
 * writes a Date's UTC fields, so the local clock reading is shifted into them.
 */
const excelLocalDate = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);

/** orders.exportXlsx: the orders as a workbook with the list's columns, headers in the user's language. */
export async function exportOrdersXlsx(
  deps: { store: OrdersStore; clock: Clock; providers: ProviderRegistry },
  ctx: CallContext,
  input: { orderIds?: string[]; filter?: z.output<typeof exportFilterSchema>; lang: Lang },
): Promise<{ fileName: string; base64: string; rows: number }> {
  const rows = await ordersFor(deps.store, ctx, input);
  const { default: ExcelJS } = await import('exceljs'); // with the first export, not with the app (~30 MB)
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date(deps.clock.now());
  const sheet = workbook.addWorksheet(input.lang === 'ru' ? 'Заказы' : 'Orders');
  sheet.columns = columns.map((c) => ({ header: c[input.lang], key: c.key, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const r of rows) {
    const key = r.statusKey as StatusKey;
    sheet.addRow({
      orderId: r.id,
      clientNumber: r.clientNumber,
      service: deps.providers.get(r.providerKey)?.info.name ?? r.providerKey,
      providerNumber: r.providerNumber ?? '',
      status: statusNames[key]?.[input.lang] ?? r.statusKey,
      statusDescription: r.statusDescription ?? '',
      recipientName: r.recipientName,
      recipientPhone: r.recipientPhone,
      recipientCity: r.recipientCity ?? '',
      codCost: toRubles(r.codKopecks),
      quotedDeliveryCost: rublesOrNull(r.quotedDeliveryKopecks),
      deliveryCost: rublesOrNull(r.deliveryKopecks),
      created: excelLocalDate(r.createdAt),
    });
  }
  for (const key of ['codCost', 'quotedDeliveryCost', 'deliveryCost']) sheet.getColumn(key).numFmt = '#,##0.00';
  sheet.getColumn('created').numFmt = 'dd.mm.yyyy hh:mm';
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  const d = new Date(deps.clock.now());
  const p = (n: number) => String(n).padStart(2, '0');
  const fileName = `${input.lang === 'ru' ? 'заказы' : 'orders'}-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}.xlsx`;
  return { fileName, base64: buffer.toString('base64'), rows: rows.length };
}
