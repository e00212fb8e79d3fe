import { fixedOrText, message, wireText, type MessageParam, type MessageRef } from '../../../shared/messages';

/**
 * The system's words for a call that got no answer ("connect ECONNREFUSED 127.0.0.1:9") as a message the
 * window says in its language; on the wire it reads exactly as the system wrote it. Each form is the
 * catalog's wire text with the address (or host) last.
 */
const forms: readonly ((rest: string) => MessageRef)[] = [
  (address) => message('net.refused', { address }),
  (host) => message('net.noHost', { host }),
  (address) => message('net.timedOut', { address }),
  (address) => message('net.hostUnreachable', { address }),
  (host) => message('net.noHostNow', { host }),
];
const prefixes = forms.map((form) => [wireText(form('')), form] as const);

/** Why a call failed without an answer, by key where the system's text is one the catalog knows, else as written. */
export function networkReason(text: string): MessageParam {
  for (const [prefix, form] of prefixes) if (text.startsWith(prefix) && text.length > prefix.length) return form(text.slice(prefix.length));
  return fixedOrText(text);
}
