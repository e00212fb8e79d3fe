import { z } from 'zod';
import { command } from './define';
import { ownerOnly } from '../roles';

const loginName = z.string().trim().min(3, 'must be at least 3 characters').max(100, 'must be at most 100 characters').regex(/^[\w.@-]+$/, 'may hold letters, digits and . _ @ - only');

/** Settings → Local API: the login and password a shop's existing integration trades for the token (POST /login). */
export const apiLoginSettingsSchema = z.object({
  login: loginName,
  password: z.string().min(10, 'must be at least 10 characters').max(200, 'must be at most 200 characters'),
});
export type ApiLoginSettings = z.input<typeof apiLoginSettingsSchema>;

export const apiLoginStateSchema = z.object({ login: z.string().nullable() });

export const apiLoginCommands = {
  'apiLogin.get': command('The API login of the company (POST /login), or null; the password is never shown', z.object({}).default({}), apiLoginStateSchema, ownerOnly),
  'apiLogin.set': command('Set the API login and password an existing integration uses with POST /login', apiLoginSettingsSchema, apiLoginStateSchema, ownerOnly),
  'apiLogin.clear': command('Remove the API login (the token keeps working)', z.object({}).default({}), apiLoginStateSchema, ownerOnly),
};
