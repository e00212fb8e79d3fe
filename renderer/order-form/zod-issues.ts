import type { Said } from '../i18n/error-messages';
import type { core } from 'zod';
import type { FieldError } from '../../shared/errors';
import { issueMessage } from '../../shared/messages/issues';

/** Field path → the first message for it. Paths are dotted like the interface's: `places.0.items.1.quantity`. */
/** Field path → its message: the client's own check gives text, the core's answer its field error (with the key). */
export type FieldErrors = Readonly<Record<string, Said>>;

/** The message the core uses for a value that is missing; translated like the schema's own messages. */
export const requiredMessage = 'is required';

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** Dotted path of an issue; the root is ''. */
export const issuePath = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** zod issues as field errors; `aliases` moves errors of hidden fields onto the field the user edits. */
export function issuesToFieldErrors(
  issues: readonly core.$ZodIssue[],
  input: unknown,
  aliases: Readonly<Record<string, string>> = {},
): FieldErrors {
  const errors: Record<string, Said> = {};
  for (const issue of issues) {
    const raw = issuePath(issue.path);
    const path = aliases[raw] ?? raw;
    errors[path] ??= issueMessage(issue, issue.code !== 'custom' && isBlank(valueAt(input, issue.path)));
  }
  return errors;
}

/** Server field errors in the same form; `places[0].weight` and `places.0.weight` are the same field. */
export function serverFieldErrors(list: readonly FieldError[] | undefined, aliases: Readonly<Record<string, string>> = {}): FieldErrors {
  const errors: Record<string, Said> = {};
  for (const error of list ?? []) {
    const { field } = error;
    const normalized = field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
    const path = aliases[normalized] ?? normalized;
    errors[path] ??= error;
  }
  return errors;
}
