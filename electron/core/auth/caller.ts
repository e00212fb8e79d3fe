import type { Role } from '../../../shared/roles';
import type { CallContext } from '../companies/company-service';

/** A caller the core knows: its role, its company, and the session or user behind it. */
export interface Caller extends CallContext {
  role: Role;
  /** The browser session the call came with; null for the desktop window (IPC) and API tokens. */
  sessionId: number | null;
  /** The packer; null for the owner and API clients. */
  userId: number | null;
  /** Remote address (HTTP); null over IPC. */
  address: string | null;
}

/** Someone without a session yet: may only sign in. */
export interface Guest {
  role: null;
  address: string | null;
}

export type Visitor = Caller | Guest;

export const isCaller = (visitor: Visitor): visitor is Caller => visitor.role !== null;

/** The desktop window: the shop's owner, over IPC. */
export const ownerOf = (companyId: number): Caller => ({ role: 'owner', companyId, sessionId: null, userId: null, address: null });

/** A program holding the company's API token. */
export const clientOf = (companyId: number, address: string | null = null): Caller => ({ role: 'client', companyId, sessionId: null, userId: null, address });
