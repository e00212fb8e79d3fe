import { fieldMessage } from '../../i18n/error-messages';
import type { Translate } from '../../i18n/types';

const fieldKeys = { date: 'courier.date', timeStart: 'courier.timeStart', timeEnd: 'courier.timeEnd', city: 'courier.city', providerKey: 'courier.service', weight: 'courier.weight', phone: 'courier.phone' } as const;

/**
 * A courier call's refusal ("date: couriers do not come on Sundays (…); city: …") in the user's language:
 * each field named by its label in the form and each message the core knows translated; a service's own
 * words stay as it wrote them.
 */
export function courierProblemText(text: string, t: Translate): string {
  return text
    .split('; ')
    .map((part) => {
      const m = /^([A-Za-z.\d]+): (.+)$/.exec(part);
      if (!m) return fieldMessage(part, t);
      const key = fieldKeys[m[1] as keyof typeof fieldKeys];
      return `${key ? t(key) : m[1]}: ${fieldMessage(m[2], t)}`;
    })
    .join('; ');
}
