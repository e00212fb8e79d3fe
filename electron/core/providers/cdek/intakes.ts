import { z } from 'zod';
import type { CourierCallProgress, CourierCallRef, CourierCallRegistration, CourierCallRequest, CourierCalls } from '../courier-call';
import { ProviderRejectedError, ProviderUnavailableError } from '../provider';
import { said } from '../../../../shared/messages';
import { CDEK, type CdekClient } from './client';
import { CdekApiError, notFoundCodes } from './errors';
import { describeErrors } from './mapping';
import { cdekRequestSchema, type CdekRequestInfo } from './wire';

/**
 * CDEK courier requests ("заявки на вызов курьера", /v2/intakes): create, read, delete. Like orders they are
 * asynchronous: POST answers 202 with a uuid, CDEK checks the request afterwards and gives it a number
 * (intake_number) or marks it INVALID with its errors.
 */

/** `POST /v2/intakes` body, as far as ShipDesk fills it. Weight in grams, sides in centimetres. */
export interface CdekIntakeBody {
  cdek_number?: string;
  order_uuid?: string;
  intake_date: string;
  intake_time_from: string;
  intake_time_to: string;
  name: string;
  weight: number;
  length?: number;
  width?: number;
  height?: number;
  comment?: string;
  sender: { company?: string; name: string; phones: { number: string }[] };
  from_location: { country_code: string; city: string; postal_code?: string; address: string; latitude?: number; longitude?: number };
  need_call: boolean;
}

const intakeEntitySchema = z.object({
  uuid: z.string(),
  intake_number: z.union([z.number(), z.string()]).nullish().transform((v) => (v === null || v === undefined ? null : String(v))),
  statuses: z.array(z.object({ code: z.string(), name: z.string().optional(), date_time: z.string().optional() })).nullish().transform((v) => v ?? []),
});

/** `POST/GET/DELETE /v2/intakes…` answers. */
export const cdekIntakeResponseSchema = z.object({
  entity: intakeEntitySchema.partial({ intake_number: true, statuses: true }).optional(),
  requests: z.array(cdekRequestSchema).nullish().transform((v) => v ?? []),
});
export type CdekIntakeResponse = z.output<typeof cdekIntakeResponseSchema>;

/** The street part of the address, as CDEK wants it in from_location.address. */
function streetAddress(request: CourierCallRequest): string {
  const a = request.address;
  const parts = [a.street, a.house && `д. ${a.house}`, a.block && `корп. ${a.block}`, a.office && `оф. ${a.office}`].filter(Boolean);
  return parts.length ? parts.join(', ') : (a.addressString ?? '');
}

/** Our courier call → CDEK's intake body. One named order goes as its cdek_number; several go as a general pickup. */
export function toCdekIntake(request: CourierCallRequest): CdekIntakeBody {
  const only = request.shipments.length === 1 ? request.shipments[0] : undefined;
  return {
    ...(only ? { cdek_number: only.providerNumber, ...(only.additionalProviderNumber ? { order_uuid: only.additionalProviderNumber } : {}) } : {}),
    intake_date: request.date,
    intake_time_from: request.timeStart,
    intake_time_to: request.timeEnd,
    name: request.shipments.length ? `Отправления: ${request.shipments.length}` : 'Отправления магазина',
    weight: request.weight,
    ...(request.length ? { length: request.length } : {}),
    ...(request.width ? { width: request.width } : {}),
    ...(request.height ? { height: request.height } : {}),
    ...(request.comment ? { comment: request.comment } : {}),
    sender: { ...(request.companyName ? { company: request.companyName } : {}), name: request.contactName, phones: [{ number: request.phone }] },
    from_location: {
      country_code: request.address.countryCode,
      city: request.address.city,
      ...(request.address.postIndex ? { postal_code: request.address.postIndex } : {}),
      address: streetAddress(request),
      ...(request.address.lat !== undefined && request.address.lng !== undefined ? { latitude: request.address.lat, longitude: request.address.lng } : {}),
    },
    need_call: false,
  };
}

const createRequestOf = (answer: CdekIntakeResponse): CdekRequestInfo | undefined => answer.requests.find((r) => r.type === 'CREATE') ?? answer.requests[0];

/**
 * CDEK's intake statuses that end a call otherwise than with the courier's visit. The rest (ACCEPTED, CREATED,
 * READY_FOR_APPOINTMENT, APPOINTED_COURIER, DONE, PROBLEM_DETECTED, PROCESSING_REQUIRED) leave it accepted:
 * the call stands and the shop waits for the courier.
 */
const canceledStatuses = new Set(['REMOVED']);
const invalidStatuses = new Set(['INVALID']);

/** Where CDEK's intake stands: refused by its check, removed, or accepted with its number once CDEK gave one. */
export function intakeProgress(answer: CdekIntakeResponse): CourierCallProgress {
  const create = createRequestOf(answer);
  const latest = answer.entity?.statuses?.[0]?.code; // CDEK lists the newest status first
  if (create?.state === 'INVALID' || (latest && invalidStatuses.has(latest))) {
    return { state: 'refused', reason: `CDEK refused the courier request: ${describeErrors(create?.errors ?? []) || 'CDEK marked it INVALID'}` };
  }
  if (latest && canceledStatuses.has(latest)) return { state: 'canceled' };
  return { state: 'accepted', providerNumber: answer.entity?.intake_number ?? null };
}

/** CDEK's courier calls through the account's client; `poll` waits between looks at the new intake. */
export function cdekCourierCalls(client: CdekClient, poll: { delaysMs: number[]; sleep: (ms: number) => Promise<void> }): CourierCalls {
  const read = async (uuid: string) => cdekIntakeResponseSchema.parse((await client.call('GET', `/intakes/${uuid}`)).body);

  async function create(request: CourierCallRequest): Promise<CourierCallRegistration> {
    try {
      const created = cdekIntakeResponseSchema.parse((await client.call('POST', '/intakes', { body: toCdekIntake(request) })).body);
      const uuid = created.entity?.uuid;
      if (!uuid) throw new ProviderUnavailableError(said('provider.intakeNoUuid', { service: CDEK }));
      for (const delay of poll.delaysMs) {
        await poll.sleep(delay);
        const progress = intakeProgress(await read(uuid));
        if (progress.state === 'refused') throw new ProviderRejectedError(progress.reason, [], 'INVALID');
        if (progress.state === 'accepted' && progress.providerNumber) return { providerNumber: progress.providerNumber, additionalProviderNumber: uuid };
      }
      // Accepted and still being checked: the uuid is its reference until CDEK numbers it (refresh).
      return { providerNumber: null, additionalProviderNumber: uuid };
    } catch (error) {
      throw error instanceof CdekApiError ? new ProviderRejectedError(said('provider.intakeRefused', { service: CDEK, reason: describeErrors(error.errors) }), [], error.code) : error;
    }
  }

  const uuidOf = (call: CourierCallRef) => call.additionalProviderNumber ?? call.providerNumber ?? '';

  async function cancel(call: CourierCallRef): Promise<void> {
    const uuid = uuidOf(call);
    try {
      await client.call('DELETE', `/intakes/${uuid}`);
    } catch (error) {
      if (error instanceof CdekApiError && error.has(...notFoundCodes)) return; // gone already: a repeated cancel
      throw error instanceof CdekApiError ? new ProviderRejectedError(said('provider.intakeDeleteRefused', { service: CDEK, uuid, reason: describeErrors(error.errors) }), [], error.code) : error;
    }
  }

  async function refresh(call: CourierCallRef): Promise<CourierCallProgress> {
    try {
      return intakeProgress(await read(uuidOf(call)));
    } catch (error) {
      // CDEK no longer knows the request: it was removed on its side.
      if (error instanceof CdekApiError && error.has(...notFoundCodes)) return { state: 'canceled' };
      throw error instanceof CdekApiError ? new ProviderUnavailableError(said('provider.intakeStateUnknown', { service: CDEK, uuid: uuidOf(call), reason: describeErrors(error.errors) })) : error;
    }
  }

  return { create, cancel, refresh };
}
