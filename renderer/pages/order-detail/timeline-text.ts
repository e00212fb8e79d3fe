import { fieldLabel, fieldMessage } from '../../i18n/error-messages';
import type { PlainMessageKey, Translate } from '../../i18n/types';

/** Fixed texts the core writes on statuses (order-service.ts, outbox.ts), by their translation key. */
const fixedTexts: Readonly<Record<string, PlainMessageKey>> = {
  'Changed; sending to the delivery service again': 'detail.timeline.resending',
  'Changed; sending the changes to the delivery service': 'detail.timeline.sendingChanges',
  'Changes accepted by the delivery service': 'detail.timeline.changesAccepted',
};

const keptPrevious = 'The delivery service refused the changes; it keeps the previous data. ';
/** A service's refusal with its field errors: "sandbox-express refused the order: recipient.city: …; …". */
const refusalPattern = /^(\S+) refused (?:the order|the changes): (.+)$/s;

/**
 * A status description in the user's language: the core's fixed texts and a service's refusal (each
 * field error with its field named and its message translated). Anything else is the service's own
 * wording and is shown as it came.
 */
export function timelineText(text: string, t: Translate): string {
  const fixed = fixedTexts[text];
  if (fixed) return t(fixed);
  const kept = text.startsWith(keptPrevious);
  const rest = kept ? text.slice(keptPrevious.length) : text;
  const refusal = rest.match(refusalPattern);
  if (!refusal) return kept ? `${t('detail.timeline.keptPrevious')} ${rest}` : text;
  const reasons = refusal[2].split('; ').map((part) => {
    const colon = part.indexOf(': ');
    return colon > 0 ? `${fieldLabel(part.slice(0, colon), t)}: ${fieldMessage(part.slice(colon + 2), t)}` : fieldMessage(part, t);
  });
  const head = t('detail.timeline.refused', { service: refusal[1] });
  return `${kept ? `${t('detail.timeline.keptPrevious')} ` : ''}${head} ${reasons.join('; ')}`;
}
