import { z } from 'zod';
import type { CourierCallRegistration, CourierCallRequest, CourierCalls } from '../courier-call';
import { ProviderRejectedError, ProviderUnavailableError } from '../provider';
import type { CdekClient } from './client';
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
 * Where CDEK's check of the intake stands: numbered, refused, or still under way.
 * Its number comes with the SUCCESSFUL create request; until then only the uuid is known.
 */
export function intakeOutcome(answer: CdekIntakeResponse): { kind: 'numbered'; number: string } | { kind: 'invalid'; reason: string } | { kind: 'pending' } {
  const create = createRequestOf(answer);
  if (create?.state === 'INVALID') return { kind: 'invalid', reason: describeErrors(create.errors) || 'CDEK marked the courier request INVALID' };
  const number = answer.entity?.intake_number;
  if (number) return { kind: 'numbered', number };
  return { kind: 'pending' };
}

/** CDEK's courier calls through the account's client; `poll` waits between looks at the new intake. */
export function cdekCourierCalls(client: CdekClient, poll: { delaysMs: number[]; sleep: (ms: number) => Promise<void> }): CourierCalls {
  const read = async (uuid: string) => cdekIntakeResponseSchema.parse((await client.call('GET', `/intakes/${uuid}`)).body);

  async function create(request: CourierCallRequest): Promise<CourierCallRegistration> {
    try {
      const created = cdekIntakeResponseSchema.parse((await client.call('POST', '/intakes', { body: toCdekIntake(request) })).body);
      const uuid = created.entity?.uuid;
      if (!uuid) throw new ProviderUnavailableError('CDEK accepted the courier request without its uuid');
      for (const delay of poll.delaysMs) {
        await poll.sleep(delay);
        const outcome = intakeOutcome(await read(uuid));
        if (outcome.kind === 'invalid') throw new ProviderRejectedError(`CDEK refused the courier request: ${outcome.reason}`, [], 'INVALID');
        if (outcome.kind === 'numbered') return { providerNumber: outcome.number, additionalProviderNumber: uuid };
      }
      // Accepted and still being checked: the uuid is its reference until CDEK numbers it.
      return { providerNumber: uuid, additionalProviderNumber: uuid };
    } catch (error) {
      throw error instanceof CdekApiError ? new ProviderRejectedError(`CDEK refused the courier request: ${describeErrors(error.errors)}`, [], error.code) : error;
    }
  }

  async function cancel(call: { providerNumber: string; additionalProviderNumber?: string | null }): Promise<void> {
    const uuid = call.additionalProviderNumber ?? call.providerNumber;
    try {
      await client.call('DELETE', `/intakes/${uuid}`);
    } catch (error) {
      if (error instanceof CdekApiError && error.has(...notFoundCodes)) return; // gone already: a repeated cancel
      throw error instanceof CdekApiError ? new ProviderRejectedError(`CDEK refused to delete courier request ${uuid}: ${describeErrors(error.errors)}`, [], error.code) : error;
    }
  }

  return { create, cancel };
}
