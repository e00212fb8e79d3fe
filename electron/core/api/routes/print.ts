import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { labelRequestSchema, labelsAnswerSchema, waybillRequestSchema, waybillsAnswerSchema } from '../../../../shared/contract/labels';
import { ErrorCode } from '../../../../shared/errors';
import { notFound } from '../../errors';
import type { PrintedFile } from '../../print/file-links';
import { bodyRows, unauthorizedRow, validationRow } from '../openapi/operations';
import { tokenFrom } from '../../companies/company-service';
import { defineRoute, type ApiRequest, type Route } from '../route';

/** The link to a made file on this same server, as the caller reached it (the Host header was checked already). */
const fileUrl = (req: ApiRequest<unknown, unknown, unknown>, token: string) => `${req.secure ? 'https' : 'http'}://${req.headers.host}/v1/files/${token}`;

function sendFile(res: ServerResponse, file: PrintedFile): void {
  const bytes = Buffer.from(file.bytes);
  res.writeHead(200, {
    'Content-Type': file.contentType,
    'Content-Length': bytes.length,
    // inline: a browser shows the PDF (and its print button) instead of only saving it.
    'Content-Disposition': `inline; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(bytes);
}

/** An order id as the aggregator's clients read it in these answers: a number when it is one (see labelsAnswerSchema). */
const answeredId = (id: string): number | string => (/^[1-9]\d{0,14}$/.test(id) ? Number(id) : id);
/** Failed orders as the interface has them: the id and the English reason (the key is the window's). */
const answeredFailures = (failed: { orderId: string; message: string }[]) => failed.map((f) => ({ orderId: answeredId(f.orderId), message: f.message }));

const linkRules =
  'The link works without headers (plugins open it in a browser), for 10 minutes, and only for the calling company: a caller that sends another company\'s token is told it does not exist (ours).';

/**
 * Labels and handover acts for integrations: the answers carry links to files this server keeps for a
 * few minutes (see print/file-links), because plugins open them in a browser without headers.
 */
export const printRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/orders/labels',
    body: labelRequestSchema,
    answer: labelsAnswerSchema,
    doc: {
      id: 'orderLabels',
      tag: 'Orders',
      summary: 'Labels of orders as one file',
      summaryRu: 'Этикетки заказов одним файлом',
      description: [
        `Labels of 1 to 100 orders as **one** PDF (or one ZPL stream), in the order of \`orderIds\`, one label per place. \`url\` links to the file on this server. ${linkRules}`,
        '- A service that prints its own labels is asked now (CDEK: its print forms, PDF only; an upstream aggregator: its own `POST /orders/labels`, whose file is fetched and passed on); every other service gets a label drawn by ShipDesk: service and tariff, the service\'s number as Code 128 and DataMatrix, the shop\'s number, the recipient or the pickup point, place N of M, weight, cash on delivery, the sender.',
        '- `size` (ours): `100x150` (default, one thermal label per page) or `A4` (four A6 labels to a sheet, from `startQuarter` 1–4 on: 1 top left, 2 top right, 3 bottom left, 4 bottom right). ZPL is always 100×150 mm at 203 dpi, text in UTF-8 (`^CI28`) in the printer\'s resident Unicode font (`^CW1,E:TT0003M_.FNT`, Link-OS printers).',
        '- Order ids in the answer are numbers (`failedOrders[].orderId`), as the aggregator\'s SDK reads them; an id asked for that is not a number is answered as sent (ours).',
        '- An order that cannot be printed goes to `failedOrders` with the reason and the others are printed: unknown or another company\'s ("not found"), canceled, not registered with its service yet, or its service not answering or refusing. When none can be printed `url` is null (ours).',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'LabelsRequest', description: 'The orders and the format.', example: { orderIds: [42, 43], format: 'pdf' } },
      answer: {
        name: 'LabelsAnswer',
        description: 'The link to the file and the orders left out.',
        example: { url: 'http://127.0.0.1:8765/v1/files/3nqF0…', failedOrders: [{ orderId: 44, message: 'Order 44 is canceled: a canceled order is not printed' }] },
      },
      errors: [unauthorizedRow, ...bodyRows, validationRow('`orderIds` is missing, empty or longer than 100, or `format`, `size` or `startQuarter` is not one of the listed values.')],
    },
    handler: async (req, app) => {
      const outcome = await app.services.labels.print(req.ctx, req.body);
      const url = outcome.file ? fileUrl(req, app.services.fileLinks.put(req.ctx.companyId, outcome.file).token) : null;
      return { url, failedOrders: answeredFailures(outcome.failedOrders) };
    },
  }),
  defineRoute({
    method: 'POST',
    pattern: '/orders/waybills',
    body: waybillRequestSchema,
    answer: waybillsAnswerSchema,
    doc: {
      id: 'orderWaybills',
      tag: 'Orders',
      summary: 'Handover acts of orders, one per delivery service',
      summaryRu: 'Акты приёма-передачи, по одному на службу доставки',
      description: [
        `One handover act («акт приёма-передачи», PDF, in Russian) per delivery service of the given orders: act number and date, city, the shop with its legal details (Settings), the service, a row per order (shop's number, service's number, places, weight, declared value, cash on delivery), totals, the handover statement and signature blocks. \`file\` links to the act like \`url\` of the labels. ${linkRules}`,
        '- A service with its own handover papers is asked for them now: CDEK\'s waybills print form (`/print/orders`), an upstream aggregator\'s own `POST /orders/waybills` (its files one after another). Its orders go to `failedOrders` when it refuses or does not answer. Every other service gets the act drawn by ShipDesk.',
        '- The act number (of a drawn act) is the handover\'s when the orders were marked handed over together in the app, otherwise the number their handover takes today: `YYYYMMDD-providerKey`, then `-2` for a second one that day (ours).',
        '- Orders that cannot go on an act are in `failedOrders`, with the same reasons as for labels. Order ids (`waybillItems[].orderIds`, `failedOrders[].orderId`) are numbers, as the aggregator\'s SDK reads them (ours).',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'WaybillsRequest', description: 'The orders.', example: { orderIds: [42, 43] } },
      answer: {
        name: 'WaybillsAnswer',
        description: 'One act per service and the orders left out.',
        example: { waybillItems: [{ providerKey: 'sandbox-express', file: 'http://127.0.0.1:8765/v1/files/9KdA…', orderIds: [42, 43] }], failedOrders: [] },
      },
      errors: [unauthorizedRow, ...bodyRows, validationRow('`orderIds` is missing, empty or longer than 100.')],
    },
    handler: async (req, app) => {
      const made = await app.services.acts.acts(req.ctx, req.body.orderIds);
      return {
        waybillItems: made.acts.map((act) => ({ providerKey: act.providerKey, file: fileUrl(req, app.services.fileLinks.put(req.ctx.companyId, act.file).token), orderIds: act.orderIds.map(answeredId) })),
        failedOrders: answeredFailures(made.failedOrders),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    pattern: '/files/:token',
    public: true,
    params: z.object({ token: z.string() }),
    answer: z.string().meta({ format: 'binary' }),
    doc: {
      id: 'printedFile',
      tag: 'Orders',
      summary: 'A made label or act file',
      summaryRu: 'Файл этикеток или акта',
      description: `The file behind a \`url\` of POST /orders/labels or a \`file\` of POST /orders/waybills: \`application/pdf\`, or \`text/plain\` for ZPL, shown inline. No token needed: the link is the key (256 random bits). ${linkRules}`,
      formats: ['file'],
      params: { token: { description: 'The last part of the link.', example: '3nqF0…' } },
      answer: { name: 'PrintedFile', description: 'The PDF or ZPL bytes.' },
      errors: [{ status: 404, code: ErrorCode.notFound, when: 'No such file: an unknown or expired link, or another company\'s.' }],
    },
    handler: async (req, app) => {
      // Opened without headers it is the link alone; a caller that does name itself must be the file's company.
      const named = req.headers.authorization ? ((await app.services.companies.byToken(tokenFrom(req.headers.authorization))) ?? { companyId: 0 }) : undefined;
      const file = app.services.fileLinks.get(req.params.token, named?.companyId);
      if (!file) throw notFound('No such file: the link is wrong or has expired (links work for 10 minutes); ask for the labels again');
      return { stream: (res: ServerResponse) => sendFile(res, file) };
    },
  }),
];
