import { createContext, useContext } from 'react';
import { fieldMessage } from '../i18n/error-messages';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { fieldDomId } from './form-values';
import type { FieldErrors } from './zod-issues';

/** Client-side errors of the current values, computed once per change by the form. */
export const ClientErrorsContext = createContext<FieldErrors>({});

export interface FieldBinding {
  id: string;
  error: string | undefined;
  onBlur: () => void;
  'data-path': string;
}

/**
 * Wiring for one input: its DOM id, its error in the user's language and the blur that marks it
 * touched. A server error shows at once; a client error once the field was left or a submit tried.
 */
export function useField(path: string): FieldBinding {
  const t = useT();
  const clientErrors = useContext(ClientErrorsContext);
  const serverError = useOrderFormStore((s) => s.serverErrors[path]);
  const visible = useOrderFormStore((s) => s.submitAttempted || s.touched[path] === true);
  const touch = useOrderFormStore((s) => s.touch);
  const raw = serverError ?? (visible ? clientErrors[path] : undefined);
  return { id: fieldDomId(path), error: raw === undefined ? undefined : fieldMessage(raw, t), onBlur: () => touch(path), 'data-path': path };
}
