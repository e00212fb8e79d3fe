import type { SenderProfile } from '../../../../shared/schemas/settings';

/**
 * The accounts aggregate: companies and their API tokens and logins, company details and sender profiles,
 * the app-wide settings, packers and browser sessions. Times are epoch milliseconds.
 */

export interface Company {
  id: number;
  name: string;
  apiToken: string;
  /** The shop's own company (the desktop window acts as its owner); API clients' companies are not. */
  isDesktop: boolean;
}

export interface NewCompany {
  name: string;
  apiToken: string;
  isDesktop: boolean;
  createdAt: number;
}

/** An API login with what POST /login needs to answer it. */
export interface ApiLogin {
  companyId: number;
  login: string;
  passwordHash: string;
  apiToken: string;
}

export interface StoredSenderProfile {
  id: number;
  name: string;
  /** The sender address as the order form typed it. */
  sender: SenderProfile['sender'];
  isDefault: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface Packer {
  id: number;
  companyId: number;
  name: string;
  passwordHash: string;
  createdAt: number;
}

/** A packer as the owner's users list shows them. */
export interface PackerSummary {
  id: number;
  name: string;
  createdAt: number;
  /** Sessions neither revoked nor expired at the time asked. */
  activeSessions: number;
  lastSignInAt: number | null;
}

export type SessionRole = 'owner' | 'packer';

export interface Session {
  id: number;
  role: SessionRole;
  companyId: number;
  userId: number | null;
  lastSeenAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

export interface NewSession {
  secretHash: string;
  role: SessionRole;
  companyId: number;
  userId: number | null;
  at: number;
  expiresAt: number | null;
}

/** Which live sessions to end: every given condition holds. */
export interface SessionsToRevoke {
  sessionId?: number;
  userId?: number;
  role?: SessionRole;
}

export interface AccountsStore {
  company(id: number): Promise<Company | undefined>;
  companyByToken(apiToken: string): Promise<Company | undefined>;
  desktopCompany(): Promise<Company | undefined>;
  createCompany(company: NewCompany): Promise<Company>;
  setApiToken(companyId: number, apiToken: string): Promise<void>;

  /** The company's details as last saved (name aside, which is the company's), or undefined. */
  companyDetails(companyId: number): Promise<Record<string, unknown> | undefined>;
  /** Saves the details and, when given, the company's name, together. */
  saveCompanyDetails(companyId: number, change: { name?: string; details: Record<string, unknown>; at: number }): Promise<void>;

  /** The company's sender profiles, the default first. */
  senderProfiles(companyId: number): Promise<StoredSenderProfile[]>;
  senderProfile(companyId: number, id: number): Promise<StoredSenderProfile | undefined>;
  /** Adds a profile; the company's first profile, or one asked to be, becomes the only default. */
  createSenderProfile(companyId: number, profile: { name: string; sender: SenderProfile['sender']; isDefault?: boolean; at: number }): Promise<number>;
  /** Changes the given fields; `isDefault: true` makes it the only default. */
  updateSenderProfile(companyId: number, id: number, change: { name?: string; sender?: SenderProfile['sender']; isDefault?: boolean; at: number }): Promise<void>;
  /** Removes a profile; when it was the default, the oldest left becomes the default. */
  deleteSenderProfile(companyId: number, id: number): Promise<void>;

  /** An app-wide setting's value; undefined when missing or unreadable. */
  appSetting(key: string): Promise<unknown>;
  saveAppSetting(key: string, value: unknown, at: number): Promise<void>;

  apiLoginOf(companyId: number): Promise<string | null>;
  apiLogin(login: string): Promise<ApiLogin | undefined>;
  /** Sets or replaces the company's login; 'taken' (and nothing changed) when another company has it. */
  saveApiLogin(companyId: number, login: { login: string; passwordHash: string; at: number }): Promise<'saved' | 'taken'>;
  clearApiLogin(companyId: number): Promise<void>;

  packers(companyId: number): Promise<Packer[]>;
  packer(companyId: number, userId: number): Promise<Packer | undefined>;
  packerName(userId: number): Promise<string | undefined>;
  packerSummaries(companyId: number, now: number): Promise<PackerSummary[]>;
  /** Adds a packer; 'taken' when the company has one of that name already. */
  createPacker(companyId: number, packer: { name: string; passwordHash: string; at: number }): Promise<number | 'taken'>;
  setPackerPassword(userId: number, passwordHash: string): Promise<void>;
  /** Removes a packer with their sessions. */
  deletePacker(userId: number): Promise<void>;

  openSession(session: NewSession): Promise<number>;
  sessionBySecretHash(secretHash: string): Promise<Session | undefined>;
  session(id: number): Promise<Session | undefined>;
  touchSession(id: number, at: number): Promise<void>;
  /** Ends the live sessions that match; gives the ones it ended. */
  revokeSessions(which: SessionsToRevoke, at: number): Promise<{ id: number; companyId: number }[]>;
}
