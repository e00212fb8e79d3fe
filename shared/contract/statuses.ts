import { command } from './define';
import { shopStaff } from '../roles';
import { appStatusHistorySchema, statusHistoryCommandSchema } from '../schemas/statuses';

export const statusCommands = {
  'statuses.history': command("An order's status timeline, newest first", statusHistoryCommandSchema, appStatusHistorySchema, shopStaff),
};
