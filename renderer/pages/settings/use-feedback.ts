import type { ErrorBody } from '../../../shared/errors';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import type { Translate } from '../../i18n/types';
import { toastRefusal, useToastStore } from '../../stores/toast-store';

/** A short success note in the corner; texts are functions of t() so they follow a language switch. */
export function toastSuccess(title: (t: Translate) => string, message?: (t: Translate) => string): void {
  useToastStore.getState().push({ tone: 'success', title, ...(message ? { message } : {}) });
}

/**
 * A refusal of the core (or a lost connection) in the corner, translated, with its advice when there is one; none
 * for what the storage banner says (toastRefusal).
 */
export function toastFailure(title: (t: Translate) => string, error: ErrorBody): void {
  toastRefusal(error, {
    title,
    message: (t) => [error.errors?.length ? t('settings.fixErrors') : errorTitle(error, t), error.errors?.length ? undefined : errorHint(error, t)].filter(Boolean).join('. '), // the headline has no full stop of its own
  }, 9000);
}
