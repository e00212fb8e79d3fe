import type { ImportField } from '../../../shared/contract/import';
import { uploadKeys } from '../import/keys';

/** The upload table's fields for the wizard's mapping step, in the table's order. */
export function importFields(): ImportField[] {
  return Object.entries(uploadKeys).map(([key, spec]) => ({ key, level: spec.level, kind: spec.kind, required: spec.required }));
}
