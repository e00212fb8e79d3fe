import type { ImportField } from '../../../shared/contract/import';
import { uploadKeys } from '../import/keys';

/** How the wizard fills a field that no column gives (see import-wizard.ts). */
const filledBy: Readonly<Record<string, NonNullable<ImportField['filledBy']>>> = {
  'order.providerKey': 'service',
  'order.weight': 'items',
  'order.pickupType': 'tariff',
  'order.deliveryType': 'tariff',
  'cost.assessedCost': 'items',
  'place.weight': 'order',
  'item.quantity': 'one',
};
const leftOut = new Set(['place.height', 'place.width', 'place.length', 'item.weight']);

/**
 * The upload table's fields for the wizard's mapping step, in the table's order, with what the wizard
 * asks for: a field it fills itself is not required and says how it is filled; the sender's fields come
 * from the default sender profile when the company has one.
 */
export function importFields(hasSenderProfile: boolean): ImportField[] {
  return Object.entries(uploadKeys).map(([key, spec]) => {
    const sender = hasSenderProfile && key.startsWith('sender.');
    const by = filledBy[key] ?? (sender ? 'senderProfile' : undefined);
    const required = by || leftOut.has(key) ? false : spec.required;
    return { key, level: spec.level, kind: spec.kind, required, ...(by ? { filledBy: by } : {}) };
  });
}
