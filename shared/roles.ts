import { z } from 'zod';

/**
 * Who is calling. `owner`: the shop (the desktop window, the link `npm start` / `npm run serve` prints);
 * `packer`: a person the owner added, signed in with a name and password; `client`: a program holding a
 * company's API token, which reaches the delivery interface (`/v1/...`) only.
 */
export const roles = ['owner', 'packer', 'client'] as const;
export type Role = (typeof roles)[number];

/** Who may call a command: some roles, or anyone, before any session (signing in). */
export type Access = readonly Role[] | 'public';

/** Settings, connections and their secrets, backups, tokens, the local API switch, users. */
export const ownerOnly = ['owner'] as const satisfies Access;
/** The shop's daily work: orders, drafts, import, labels, refresh. */
export const shopStaff = ['owner', 'packer'] as const satisfies Access;
/** Signing in: no session yet. */
export const anyone = 'public' as const satisfies Access;

/** Whether the access list lets this role (or a caller without a session: null) in. */
export function allows(access: Access, role: Role | null): boolean {
  if (access === 'public') return true;
  return role !== null && access.includes(role);
}

/** Who the window is signed in as: the header shows it, the UI hides what the role may not use. */
export const identitySchema = z.object({
  role: z.enum(roles),
  companyId: z.number().int(),
  companyName: z.string(),
  /** The packer's name; null for the owner. */
  userName: z.string().nullable(),
  /** When the session ends (epoch ms); null when it lasts as long as the app (the owner's). */
  expiresAt: z.number().nullable(),
});
export type Identity = z.output<typeof identitySchema>;
