import { Client, WSDL, type IHttpClient, type IOptions } from 'soap';
import { message, refOfSaid, said, type MessageRef } from '../../../../shared/messages';
import { ProviderUnavailableError, type Telling } from '../provider';
import { createTransport, type TransportOptions } from '../transport';
import { postDate } from './mapping';
import type { PostOperation } from './wire';
import { BATCH_TRACKING_WSDL, OPERATION_HISTORY_WSDL } from './wsdl';

/** Russian Post's tracking hosts (SOAP): one item at a time, and tickets of many. */
export const SINGLE_TRACKING_URL = 'https://tracking.russianpost.ru/rtm34';
export const BATCH_TRACKING_URL = 'https://tracking.russianpost.ru/fc';

/** The tracking service refused (a SOAP Fault, or an error element in its answer). */
/** Russian Post's tracking service as messages name it. */
const TRACKING = message('service.russianPostTracking');

export class RussianPostTrackingError extends Error {
  /** The message as data when it is ours. */
  readonly ref?: MessageRef;

  constructor(
    message: Telling,
    readonly code?: number,
    /** What the Fault's detail says: an unknown barcode, or a login the service did not accept. */
    readonly reason: 'notFound' | 'auth' | 'other' = 'other',
  ) {
    super(typeof message === 'string' ? message : message.message);
    this.name = 'RussianPostTrackingError';
    this.ref = refOfSaid(message);
  }
}

/** Error 6 of the ticket service: the answer is not ready yet (ask again later). */
export const TICKET_NOT_READY = 6;
/** The most barcodes one ticket takes. */
export const TICKET_MAX_BARCODES = 3000;

export interface TrackingOptions extends Omit<TransportOptions, 'service' | 'baseUrl'> {
  singleUrl: string;
  batchUrl: string;
  login: string;
  password: string;
}

const decoder = new TextDecoder();
const isFault = (bytes: Uint8Array) => /<(?:\w+:)?Fault[\s>]/.test(decoder.decode(bytes.slice(0, 4096)));

/**
 * The SOAP library's HTTP through ShipDesk's shared transport: the same timeouts, trace ids, redacted logs and outage
 * rules as every REST call (a SOAP Fault on HTTP 500 is read, not taken for an outage).
 */
function soapHttp(options: TrackingOptions, url: string): IHttpClient {
  const transport = createTransport({ service: TRACKING, baseUrl: url, fetch: options.fetch, clock: options.clock, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });
  return {
    request(_rurl, data, callback, exheaders) {
      const headers = Object.fromEntries(Object.entries(exheaders ?? {}).map(([k, v]) => [k, String(v)]));
      const done = transport
        .send({ method: 'POST', path: '', headers, body: String(data), readsOwn5xx: (_status, bytes) => isFault(bytes) })
        .then((reply) => {
          const body = decoder.decode(reply.bytes);
          const res = { status: reply.status, headers: Object.fromEntries(reply.headers), data: body };
          callback(null, res, body);
          return res;
        })
        .catch((error: unknown) => {
          callback(error);
          return undefined;
        });
      return done as never;
    },
  };
}

async function soapClient(definition: string, name: string, endpoint: string, options: TrackingOptions): Promise<Client> {
  const clientOptions: IOptions = { httpClient: soapHttp(options, endpoint), disableCache: true, returnFault: false };
  const wsdl = new WSDL(definition, name, clientOptions);
  await new Promise<void>((resolve, reject) => wsdl.onReady((err) => (err ? reject(err) : resolve())));
  return new Client(wsdl, endpoint, clientOptions);
}

const list = <T>(v: T | T[] | null | undefined): T[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN);
type Attrs = { attributes?: Record<string, string> };
type Param = { Id?: unknown; Name?: string };
/** getOperationHistory's OperationHistoryRecord, as far as ShipDesk reads it. */
interface HistoryRecord {
  AddressParameters?: { OperationAddress?: { Index?: string; Description?: string } };
  OperationParameters?: { OperType?: Param; OperAttr?: Param; OperDate?: unknown };
}
/** One item of a ticket's answer: its operations, or its error. */
interface TicketItem extends Attrs {
  Operation?: Attrs | Attrs[];
  Error?: Attrs | Attrs[];
}
interface Fault {
  Reason?: { Text?: unknown };
  faultstring?: unknown;
  Detail?: unknown;
  detail?: unknown;
}

/** A SOAP failure as ours: the transport's outage stays an outage, a Fault or an unreadable answer is the service's refusal. */
function translate(error: unknown): unknown {
  if (error instanceof ProviderUnavailableError || error instanceof RussianPostTrackingError) return error;
  const fault = (error as { root?: { Envelope?: { Body?: { Fault?: Fault } } } })?.root?.Envelope?.Body?.Fault;
  if (fault) {
    const text = (fault.Reason?.Text ?? fault.faultstring ?? 'SOAP Fault') as string | { $value?: string };
    const detail = fault.Detail ?? fault.detail;
    const more = detail && typeof detail === 'object' ? Object.entries(detail).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join('; ') : '';
    const reason = detail && typeof detail === 'object' && 'AuthorizationFaultReason' in detail ? 'auth' : /не найден|not found/i.test(more) ? 'notFound' : 'other';
    return new RussianPostTrackingError(said('provider.trackingRefused', { service: TRACKING, reason: `${typeof text === 'object' ? (text.$value ?? JSON.stringify(text)) : text}${more ? ` (${more})` : ''}` }), undefined, reason);
  }
  return new RussianPostTrackingError(said('provider.cannotRead', { service: TRACKING, detail: error instanceof Error ? error.message : String(error) }));
}

/**
 * Russian Post's tracking through its two SOAP services, with a real SOAP client (`soap`) built from ./wsdl.ts: the
 * history of one barcode (getOperationHistory, SOAP 1.2), and tickets for many (getTicket, then getResponseByTicket
 * once the service has prepared the answer).
 */
export function createPostTracking(options: TrackingOptions) {
  let single: Promise<Client> | null = null;
  let batch: Promise<Client> | null = null;
  const singleClient = () => (single ??= soapClient(OPERATION_HISTORY_WSDL, 'operation-history.wsdl', options.singleUrl, options).catch((e) => ((single = null), Promise.reject(e))));
  const batchClient = () => (batch ??= soapClient(BATCH_TRACKING_WSDL, 'batch-tracking.wsdl', options.batchUrl, options).catch((e) => ((batch = null), Promise.reject(e))));

  return {
    /** Every operation of one barcode, as the service lists them; an unknown barcode has none. */
    async history(barcode: string): Promise<PostOperation[]> {
      try {
        const client = await singleClient();
        const [answer] = await client.getOperationHistoryAsync({
          OperationHistoryRequest: { Barcode: barcode, MessageType: 0, Language: 'RUS' },
          AuthorizationHeader: { login: options.login, password: options.password },
        });
        return list<HistoryRecord>(answer?.OperationHistoryData?.historyRecord).map((r) => ({
          type: num(r.OperationParameters?.OperType?.Id),
          attribute: Number.isFinite(num(r.OperationParameters?.OperAttr?.Id)) ? num(r.OperationParameters?.OperAttr?.Id) : 0,
          typeName: r.OperationParameters?.OperType?.Name,
          attributeName: r.OperationParameters?.OperAttr?.Name,
          at: postDate(String(r.OperationParameters?.OperDate ?? '')),
          index: r.AddressParameters?.OperationAddress?.Index,
          place: r.AddressParameters?.OperationAddress?.Description,
        }));
      } catch (error) {
        throw translate(error);
      }
    },

    /** Asks for a ticket for up to 3000 barcodes; the answer is fetched later with `answer`. */
    async ticket(barcodes: string[]): Promise<string> {
      try {
        const client = await batchClient();
        const [answer] = await client.getTicketAsync({
          request: { Item: barcodes.slice(0, TICKET_MAX_BARCODES).map((b) => ({ attributes: { Barcode: b } })) },
          login: options.login,
          password: options.password,
          language: 'RUS',
        });
        const error = (answer?.error as Attrs | undefined)?.attributes;
        if (error) throw new RussianPostTrackingError(said('provider.ticketRefused', { service: TRACKING, name: error.ErrorName ?? '', code: error.ErrorTypeID ?? '?' }), num(error.ErrorTypeID), num(error.ErrorTypeID) === 1 ? 'auth' : 'other');
        if (typeof answer?.value !== 'string' || !answer.value) throw new RussianPostTrackingError(said('provider.noTicket', { service: TRACKING }));
        return answer.value;
      } catch (error) {
        throw translate(error);
      }
    },

    /** The operations of each barcode of a ticket, or null while the service is still preparing them (error 6). */
    async answer(ticket: string): Promise<Map<string, PostOperation[]> | null> {
      try {
        const client = await batchClient();
        const [answer] = await client.getResponseByTicketAsync({ ticket, login: options.login, password: options.password });
        const error = (answer?.error as Attrs | undefined)?.attributes;
        if (error) {
          if (num(error.ErrorTypeID) === TICKET_NOT_READY) return null;
          throw new RussianPostTrackingError(said('provider.ticketRefusedNumber', { service: TRACKING, ticket, name: error.ErrorName ?? '', code: error.ErrorTypeID ?? '?' }), num(error.ErrorTypeID), num(error.ErrorTypeID) === 1 ? 'auth' : 'other');
        }
        const result = new Map<string, PostOperation[]>();
        for (const item of list<TicketItem>(answer?.value?.Item)) {
          const barcode = item.attributes?.Barcode;
          if (!barcode || list(item.Error).length) continue; // an item the service does not know
          result.set(
            barcode,
            list(item.Operation).map((op) => ({
              type: num(op.attributes?.OperTypeID),
              attribute: Number.isFinite(num(op.attributes?.OperCtgID)) ? num(op.attributes?.OperCtgID) : 0,
              typeName: op.attributes?.OperName,
              at: postDate(String(op.attributes?.DateOper ?? '')),
              index: op.attributes?.IndexOper,
            })),
          );
        }
        return result;
      } catch (error) {
        throw translate(error);
      }
    },
  };
}

export type PostTracking = ReturnType<typeof createPostTracking>;
