import type { core } from 'zod';
import { keyOfWireText, message, said, type MessageRef } from './index';

/** A schema's complaint as the core and the window both say it: the English text and, where the catalog has it, its key. */
export type SaidIssue = { message: string } & Partial<MessageRef>;

/** A bound zod reports in the issue itself (`maximum`, `minimum`), so the message keeps its number as a parameter. */
function boundMessage(issue: core.$ZodIssue): MessageRef | undefined {
  if (issue.code === 'too_big' && issue.origin === 'string') return message('msg.maxLength', { max: Number(issue.maximum) });
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) > 1) return message('msg.minLength', { min: Number(issue.minimum) });
  if (issue.code === 'too_big' && issue.origin === 'number') return message('rule.atMost', { max: Number(issue.maximum) });
  if (issue.code === 'too_small' && issue.origin === 'number') return message('rule.atLeast', { min: Number(issue.minimum) });
  return undefined;
}

/**
 * One zod issue as a message: a value that is absent is required whatever the schema says; a failed union
 * ("Invalid input") speaks through the branch that has words of its own (the interface's text stays zod's); a bound keeps its number; any
 * other text the shared schemas use is a fixed text of the catalog. A text the catalog does not know
 * stays as it is, without a key.
 */
export function issueMessage(issue: core.$ZodIssue, absent: boolean): SaidIssue {
  if (absent) return said('msg.required');
  const own = issue.code === 'invalid_union' ? issue.errors.flat().find((i) => !i.message.startsWith('Invalid input'))?.message : undefined;
  const fixed = keyOfWireText(own ?? issue.message);
  if (fixed) return { message: issue.message, key: fixed };
  const bound = boundMessage(issue);
  return bound ? { message: issue.message, ...bound } : { message: issue.message };
}
