import { z } from 'zod';
import { command } from './define';
import { shopStaff } from '../roles';
import {
  draftListQuerySchema, draftListSchema, draftRefSchema, draftSaveSchema, draftSavedSchema, draftSchema, draftSubmitResultSchema, draftSubmitSchema,
} from '../schemas/drafts';

/** Offline drafts of the order form: saved as the user types, submitted as orders when ready. */
export const draftCommands = {
  'drafts.save': command('Save the order form as a draft (insert or replace by id); the data is kept as typed', draftSaveSchema, draftSavedSchema, shopStaff),
  'drafts.list': command('The company\'s drafts, last saved first, with what the list shows', draftListQuerySchema.default({ limit: 200, offset: 0 }), draftListSchema, shopStaff),
  'drafts.get': command('One draft with its form data', draftRefSchema, draftSchema, shopStaff),
  'drafts.delete': command('Remove a draft', draftRefSchema, z.object({ id: z.string(), deleted: z.string() }), shopStaff),
  'drafts.submit': command(
    'Create orders from drafts (same rules as orders.create); a created draft is removed, a failed one stays with its errors',
    draftSubmitSchema,
    draftSubmitResultSchema,
    shopStaff,
  ),
};
