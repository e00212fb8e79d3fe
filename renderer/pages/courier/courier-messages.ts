import type { ErrorBody } from '../../../shared/errors';
import type { MessageRef } from '../../../shared/messages';
import { fieldLabel, fieldMessage, messageByKey, type Naming } from '../../i18n/error-messages';
import type { Translate } from '../../i18n/types';

const fieldKeys = { date: 'courier.date', timeStart: 'courier.timeStart', timeEnd: 'courier.timeEnd', city: 'courier.city', providerKey: 'courier.service', weight: 'courier.weight', phone: 'courier.phone' } as const;

/** A courier call's field named as the form labels it. */
const courierLabel = (field: string, t: Translate) => (field in fieldKeys ? t(fieldKeys[field as keyof typeof fieldKeys]) : fieldLabel(field, t));

/**
 * Why a courier call did not go, in the user's language: the core's words by key (each field named by its
 * label in the form, each service by its name when `naming` knows it); a service's own words, which come
 * without a key, as it wrote them.
 */
export const courierProblemText = (text: string, ref: MessageRef | null | undefined, t: Translate, naming: Naming = {}): string =>
  (ref && messageByKey(ref, t, { ...naming, labels: courierLabel })) || text;

/** The core's refusal of the form, each field error by its key. */
export const courierRefusalText = (error: ErrorBody, t: Translate): string | undefined =>
  error.errors?.length ? error.errors.map((e) => `${courierLabel(e.field, t)}: ${fieldMessage(e, t)}`).join('; ') : error.description;
