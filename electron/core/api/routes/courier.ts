import { z } from 'zod';
import { ErrorCode } from '../../../../shared/errors';
import { courierCallCanceledSchema, courierCallCreatedSchema, courierCallCreateSchema } from '../../../../shared/schemas/courier-call';
import { bodyRows, unauthorizedRow, validationRow } from '../openapi/operations';
import { defineRoute, type Route } from '../route';

const courierCallExample = {
  providerKey: 'sandbox-express',
  date: '2026-03-03',
  timeStart: '10:00',
  timeEnd: '14:00',
  weight: 3200,
  length: 40,
  width: 30,
  height: 20,
  orderIds: [42, 43],
  countryCode: 'RU',
  city: 'Москва',
  street: 'ул. Тверская',
  house: '7',
  office: '12',
  companyName: 'ООО «Ромашка»',
  contactName: 'Иван Петров',
  phone: '+79161234567',
  comment: 'Въезд со двора',
};

/** Courier calls of the interface: ask a service to collect the shop's parcels, and cancel the call. */
export const courierRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/courierCall',
    body: courierCallCreateSchema,
    answer: courierCallCreatedSchema,
    doc: {
      id: 'createCourierCall',
      tag: 'Orders',
      summary: 'Call a courier',
      summaryRu: 'Вызов курьера',
      description: [
        'Asks the delivery service (`providerKey`, and `providerConnectId` for one of several accounts) to send a courier on `date` between `timeStart` and `timeEnd` (HH:MM, the shop\'s time) to the address given, for parcels of `weight` grams in all (`length`, `width`, `height` in centimetres: the largest parcel).',
        '- The service is asked at once. (ours) The call is kept whatever it answers: accepted, the answer carries its number (`providerNumber`, and `additionalProviderNumber` where the service has a second one, e.g. CDEK\'s uuid) and `error` is null; a service that numbers its calls later (CDEK checks a new courier request after answering) answers `providerNumber` null with its reference in `additionalProviderNumber`, and the app\'s list of calls shows the number, or the service\'s later refusal or removal, once the service has them; refused or unreachable, `providerNumber` is null and `error` says why, field by field (`date: couriers do not come on Sundays`). HTTP 200 either way; `id` is ours and is what `/courierCall/{id}/cancel` takes.',
        '- `orderIds` (optional) are the company\'s orders the courier takes; each must be registered with that service, else 040002 names it (`orderIds.1`).',
        '- 040002 also when the service is unknown or takes no courier calls (see `capabilities.operations` of GET /lists/providers: `courierCalls`), or the window ends before it starts.',
        '- The built-in test services answer as real ones do: no call for today after their cut-off hour (Экспресс 14:00, Постаматы 12:00), none on Sundays and public holidays, a window of at least 3 hours within working hours, and only in cities they serve; Песочница Почта takes parcels at its counters only (no courier calls). CDEK: its courier requests (intakes). An upstream aggregator: passed on to its POST /courierCall.',
        '- `extraParams` is accepted and kept; no service reads it yet.',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'CourierCallCreate', description: 'The courier call.', example: courierCallExample },
      answer: {
        name: 'CourierCallCreated',
        description: 'The call as the service answered it.',
        example: { id: 7, created: '2026-03-02T11:05:00+03:00', providerNumber: 'SBEC20260303000007', additionalProviderNumber: null, error: null },
      },
      errors: [unauthorizedRow, validationRow('The body breaks the schema, the service is unknown or takes no calls, or a named order is not the company\'s registered order of that service.'), ...bodyRows],
    },
    handler: async (req, app) => {
      const { errorMessage: _forTheWindow, ...answer } = await app.services.courier.create(req.ctx, req.body);
      return answer;
    },
  }),
  defineRoute({
    method: 'POST',
    pattern: '/courierCall/:id/cancel',
    params: z.object({ id: z.string() }),
    answer: courierCallCanceledSchema,
    doc: {
      id: 'cancelCourierCall',
      tag: 'Orders',
      summary: 'Cancel a courier call',
      summaryRu: 'Отмена вызова курьера',
      description: [
        'Cancels an accepted call at its service, then here. `id` is the one POST /courierCall answered.',
        '- Unknown id (or another company\'s): 404 040016. Already canceled: 400 040081. Refused or never accepted: 400 040000.',
        '- The service refuses (its day has passed, the courier is on the way): 400 040000 with its reason; the service cannot be reached: 503 050001, the call stays as it was.',
      ].join('\n'),
      params: { id: { description: 'The courier call\'s id.', example: '7' } },
      formats: ['json', 'xml'],
      answer: { name: 'CourierCallCanceled', description: 'The call is canceled.', example: { id: 7, canceled: '2026-03-02T11:20:00+03:00' } },
      errors: [
        unauthorizedRow,
        { status: 404, code: ErrorCode.notFound, when: 'There is no such call of the company.' },
        { status: 400, code: ErrorCode.alreadyCanceled, when: 'The call is already canceled.' },
        { status: 400, code: ErrorCode.general, when: 'The call was not accepted, or the service refused to cancel it.' },
        { status: 503, code: ErrorCode.internal, when: 'The service could not be reached.' },
      ],
    },
    handler: (req, app) => app.services.courier.cancel(req.ctx, req.params.id),
  }),
];
