import { toCreateInput, valuesFromPayload, type OrderFormValues } from './form-values';

/** Version of the form snapshot kept in a draft; a snapshot of another version is read from the payload instead. */
const formVersion = 1;

/**
 * What a draft stores: the create payload (what drafts.submit sends and what the drafts list reads its
 * number, recipient and service from) plus the form exactly as typed, so reopening restores every box,
 * half-typed numbers and the chosen point included.
 */
export function draftDataOf(values: OrderFormValues, extraTypes?: Readonly<Record<string, string>>): Record<string, unknown> {
  // JSON drops the undefined fields of the payload, as the core would store them anyway.
  return JSON.parse(JSON.stringify({ ...toCreateInput(values, extraTypes), form: { version: formVersion, values } })) as Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The form values of a draft: its snapshot when it has one of this version, else read from its payload. */
export function valuesOfDraft(data: Record<string, unknown>): OrderFormValues {
  const form = data.form;
  if (isRecord(form) && form.version === formVersion && isRecord(form.values)) {
    // The snapshot was written by this form; the payload reading fills anything a hand-edited one lacks.
    const base = valuesFromPayload(data);
    const snapshot = form.values as Partial<OrderFormValues>;
    return {
      ...base,
      ...snapshot,
      order: { ...base.order, ...snapshot.order },
      cost: { ...base.cost, ...snapshot.cost },
      recipient: { ...base.recipient, ...snapshot.recipient },
      sender: { ...base.sender, ...snapshot.sender },
      places: Array.isArray(snapshot.places) && snapshot.places.length ? snapshot.places : base.places,
      extraParams: isRecord(snapshot.extraParams) ? (snapshot.extraParams as OrderFormValues['extraParams']) : base.extraParams,
    };
  }
  return valuesFromPayload(data);
}

/** A new draft id the core accepts (letters, digits, - and _), made here so two saves in flight name one draft. */
export function newDraftId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return `d-${Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('')}`;
}
