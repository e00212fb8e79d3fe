import { z } from 'zod';
import { command } from './define';
import { shopStaff } from '../roles';

/** What one status refresh did. */
export const statusRefreshResultSchema = z.object({
  /** Orders asked about. */
  checked: z.number().int(),
  /** Orders that got at least one new status. */
  changed: z.number().int(),
  /** New statuses recorded. */
  statuses: z.number().int(),
  /** Orders whose service could not be asked this time (they are asked again next time). */
  failed: z.number().int(),
});
export type StatusRefreshResult = z.output<typeof statusRefreshResultSchema>;

export const statusRefreshCommands = {
  'statuses.refresh': command(
    'Ask the delivery services for new statuses of the company\'s active orders now',
    z.object({}).default({}),
    statusRefreshResultSchema,
    shopStaff,
  ),
};
