import type { BoundCondition } from '../../lists/filter';
import type { MessageRef } from '../../../../shared/messages';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { OrderListFilter, OrderSortKey } from '../../../../shared/schemas/orders-list';
import type { StatusKey } from '../../../../shared/status-keys';
import type { PreparedOrder } from './prepared-order';

export type { PreparedOrder };

/**
 * The orders aggregate: orders, their status history and their outbox jobs. Every read and write of the
 * tables `orders`, `order_statuses` and `outbox` goes through this interface; one implementation per
 * engine (sqlite.ts, postgres.ts; their shared Kysely in queries.ts). Methods are async and speak in models,
 * never rows or SQL. A write that must be atomic is one method.
 */

export type OrderState = 'active' | 'canceled' | 'deleted';
export type OutboxAction = 'create' | 'update' | 'cancel' | 'delete';

/** An order as kept: its data, numbers, state and current status. */
export interface StoredOrder {
  id: number;
  companyId: number;
  clientNumber: string;
  providerKey: string;
  providerConnectId: number | null;
  state: OrderState;
  statusKey: string;
  statusDescription: string | null;
  /** The current status's description as data (shared/messages), so the window can say it in its language. */
  statusDescriptionMessage: MessageRef | null;
  statusChangedAt: number;
  providerNumber: string | null;
  additionalProviderNumber: string | null;
  returnProviderNumber: string | null;
  barcode: string | null;
  trackingUrl: string | null;
  recipientName: string;
  recipientPhone: string;
  recipientCity: string | null;
  codKopecks: number;
  assessedKopecks: number;
  /** The delivery prices its data names (cost.quotedDeliveryCost, cost.deliveryCost), kopecks; null: none named. */
  quotedDeliveryKopecks: number | null;
  deliveryKopecks: number | null;
  /** The order's data as last stored (create or PUT). */
  payload: OrderCreate;
  createdAt: number;
  updatedAt: number;
  canceledAt: number | null;
  deletedAt: number | null;
  /** Items bought out on a partial delivery (item key → quantity); null: no report. */
  quantityDelivered: Record<string, number> | null;
  /** The handover that took the order to its service; null: not handed over yet. */
  handoverId: number | null;
  /** The statusChangedAt at which the shop marked the order's problem seen; null: not seen. */
  attentionSeenAt: number | null;
}

/** A status to record for an order. */
export interface NewStatus {
  key: StatusKey;
  at: number;
  description?: string | null;
  /** The description as data (shared/messages), so the window can say it in its language. */
  descriptionMessage?: MessageRef | null;
  errorCode?: string | null;
  providerCode?: string | null;
  providerName?: string | null;
  providerDescription?: string | null;
  createdProvider?: number | null;
}

/** A recorded status of an order. */
export interface StatusRecord {
  id: number;
  orderId: number;
  companyId: number;
  key: string;
  description: string | null;
  descriptionMessage: MessageRef | null;
  /** When it was recorded here. */
  createdAt: number;
  providerCode: string | null;
  providerName: string | null;
  providerDescription: string | null;
  /** When the service set it (its clock); null: a status of ours. */
  createdProvider: number | null;
  errorCode: string | null;
}

/** An order to create: stored in status `uploading` with its first status and its create job, in one write. */
export interface OrderToCreate {
  companyId: number;
  payload: OrderCreate;
  at: number;
}

/** What became of one order to create. */
export type CreateOutcome = { orderId: number } | { clientNumberTaken: true };

/** An outbox job: work for the order's delivery service, run after the write that queued it. */
export interface OutboxJob {
  id: number;
  orderId: number;
  action: OutboxAction;
  attempts: number;
  /** Failures counted against the attempt limit. */
  failedAttempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
}

/** A due job as a claim sees it, before it is taken: with its order's service and account. */
export interface DueJob extends OutboxJob {
  providerKey: string;
  providerConnectId: number | null;
}

/** A job taken by a holder, with its order. */
export interface ClaimedJob extends OutboxJob {
  order: StoredOrder;
}

/** An order's service and account, as a claim leaves them out or holds them. */
export interface ServicePair {
  providerKey: string;
  providerConnectId: number | null;
}

/** A failed call handed back to the queue. */
export interface JobFailure {
  error: string;
  errorMessage: MessageRef | null;
  /** The service's Retry-After, when it said one: due then, instead of after the backoff set at the claim. */
  retryAt?: number;
  /** Not due before this (an open breaker's trial), nor before `retryAt`, or else the backoff set at the claim. */
  notBefore: number;
  /** Whether the failure counts against the attempt limit. */
  counts: boolean;
}

/** A registration to record: the job's order gets its numbers and status `uploaded`. */
export interface RegistrationToRecord {
  jobId: number;
  orderId: number;
  companyId: number;
  providerNumber: string;
  additionalProviderNumber: string | null;
  barcode: string | null;
  trackingUrl: string | null;
  status: NewStatus;
}

/** What a finished job leaves on its order. */
export interface JobOutcome {
  status?: NewStatus;
  /** A refused cancel/delete: the order is live again, unless another live order took its clientNumber. */
  revive?: boolean;
}

/** One company's part of the queue. */
export interface QueueCount {
  pending: number;
  /** Some job's last call failed. */
  failing: boolean;
}

/** The queue as a company's window shows it. */
export interface QueueView {
  pending: number;
  retrying: number;
  nextAttemptAt: number | null;
  lastError: string | null;
  lastErrorMessage: MessageRef | null;
}

/**
 * An order's next outbox job (its oldest: the one that runs first) as its detail shows it: what it does,
 * how many attempts it had, when the next is due and why the last one failed (null: none failed yet).
 */
export interface OrderJobState {
  action: OutboxAction;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  lastErrorMessage: MessageRef | null;
}

/** An order with its pending jobs, oldest first: what a change decides on. */
export interface OrderWithJobs {
  order: StoredOrder;
  jobs: OutboxJob[];
}

/**
 * A change of one order, written at once: new data (PUT), its data-sending jobs dropped, canceled or
 * deleted, a new status, a job queued; in that order.
 */
export interface OrderChange {
  /** New data; refused with ClientNumberTaken when another live order of the company has its clientNumber. */
  payload?: OrderCreate;
  /** Drops the jobs that would send the order's data (create, update). */
  dropTransfers?: boolean;
  state?: Exclude<OrderState, 'active'>;
  status?: NewStatus;
  enqueue?: OutboxAction;
}

/** One window of the orders list. */
export interface OrderListQuery extends OrderListFilter {
  sort?: OrderSortKey;
  direction?: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** false: no count (total -1). */
  withTotal?: boolean;
}

/** An order as the list shows it: as kept, without its data (the list reads no payload). */
export type ListedOrder = Omit<StoredOrder, 'payload' | 'quantityDelivered'>;

/** A window of the list with the number that match: exact, except that a search stops counting at a cap (then `capped`). */
export interface OrderListPage {
  orders: ListedOrder[];
  total: number;
  capped: boolean;
}

/** Orders needing attention, counted by status and whether the service holds them. */
/** Cash on delivery of orders passing a filter, by service and by the delivery date the order asks for. */
export interface CodByDeliveryDate {
  providerKey: string;
  /** The order's `deliveryDate` (YYYY-MM-DD) as sent, or null when it gives none. */
  deliveryDate: string | null;
  orders: number;
  kopecks: number;
}

export interface AttentionCount {
  statusKey: string;
  registered: boolean;
  orders: number;
}

/** A handover of parcels to a delivery service. */
export interface HandoverRecord {
  id: number;
  number: string;
  handedAt: number;
}

/** A registered order as status tracking asks its service about it. */
export interface TrackedOrder {
  id: number;
  companyId: number;
  providerKey: string;
  providerNumber: string;
  additionalProviderNumber: string | null;
  clientNumber: string;
  statusKey: string;
  payload: OrderCreate;
}

/** Which orders tracking asks about: live, registered, not in a left-out status, by id after `afterId`. */
export interface TrackingQuery {
  /** One company's (the window's "refresh now"); every company's when absent. */
  companyId?: number;
  orderIds?: number[];
  /** Statuses not asked about (not registered yet, finished). */
  leaveOut: readonly string[];
  afterId: number;
  limit: number;
}

/** A status as a delivery service reports it (its time in `at`, its own words and codes). */
export interface ReportedStatus {
  key: StatusKey;
  at: number;
  description?: string;
  providerCode?: string;
  providerName?: string;
  providerDescription?: string;
}

/** What tracking found new for one order. */
export interface TrackingChange {
  orderId: number;
  companyId: number;
  /** The status the order had when it was read; the change is skipped if it moved meanwhile. */
  fromKey: string;
  /** Statuses to append, oldest first. */
  append: ReportedStatus[];
  /** Our own records that the service's report of the same status completes (its time, codes). */
  complete: { statusId: number; status: ReportedStatus }[];
  quantityDelivered?: Record<string, number>;
}

/**
 * A status list's `filter`, bound (lists/filter.ts) on the fields `key`, `created` (epoch ms, int), and for
 * the company-wide lists `orderId`, `providerKey`, `clientNumber`.
 */
export type StatusFilter = BoundCondition[];

/** The moments a company-wide status list covers. */
export interface StatusRange {
  /** Statuses set after this moment (exclusive) … */
  after?: number;
  /** … or from this moment (inclusive) … */
  from?: number;
  /** … and before this moment (exclusive). */
  before?: number;
}

export interface Page {
  offset: number;
  limit: number;
}

/** An order with a status of it. */
export interface OrderStatusPair {
  order: StoredOrder;
  status: StatusRecord;
}

/** An imported order to create: its place in the file and its prepared columns. */
export interface ImportedOrder {
  seq: number;
  row: number;
  lastRow: number;
  order: PreparedOrder;
}

/** A row of an import known to have failed, recorded as it is. */
export interface FailedImportRow {
  seq: number;
  row: number;
  lastRow: number;
  clientNumber: string;
  /** JSON of the failure (result item and each error's sheet row). */
  error: string;
}

export type ImportWriteItem = ImportedOrder | FailedImportRow;

export type ImportWriteOutcome = { seq: number; orderId: number; created: number } | { seq: number; duplicateOf: number };

/** One write of an import's orders (see createImportedOrders). */
export interface ImportWrite {
  companyId: number;
  /** The import whose ledger (import_rows) records every item; null: none is kept. */
  importId: number | null;
  items: ImportWriteItem[];
  at: number;
  /** The failure recorded for an order whose clientNumber is live already (JSON, as FailedImportRow.error). */
  duplicateError: (order: ImportedOrder, existingOrderId: number) => string;
  /** Stop taking items once this long has passed (the write stays short; the rest go in the next). */
  budgetMs?: number;
  /** Create jobs wait this long before they are due (an import releases them when it is done: releaseHeldCreates). */
  holdMs?: number;
}

/** Another live order of the company has this clientNumber. */
export class ClientNumberTaken extends Error {
  constructor(readonly clientNumber: string) {
    super(`clientNumber ${clientNumber} is taken by a live order`);
  }
}

/** An order's number at its delivery service (null: none yet) and its status key. */
export interface Registration {
  providerNumber: string | null;
  statusKey: string;
}

export interface OrdersStore extends OrderHandoverStore, OrderFiguresStore, StatusRefreshRunsStore {
  /**
   * Creates one order with its first status (`uploading`) and its create job, written together with the other orders
   * created meanwhile (group commit, group-commit.ts); a clientNumber live already (earlier in the group included) is
   * refused as taken without taking the others down.
   */
  createOrder(order: OrderToCreate): Promise<CreateOutcome>;
  /**
   * An import's bulk create, in one short write: takes the items in order, until they end or `budgetMs` has
   * passed; creates each order like createOrder (status `uploading`, first status, create job held `holdMs`),
   * reports a clientNumber live already (in the company or earlier in the write) as a duplicate, and records
   * every item taken in the import's ledger in the same write, so a run taken up again never creates an order twice.
   * Returns the outcomes and how many items it took.
   */
  createImportedOrders(write: ImportWrite): Promise<{ outcomes: ImportWriteOutcome[]; consumed: number }>;
  /** Records rows of an import that became no order (canceled before their write) in its ledger. */
  recordImportFailures(importId: number, failed: FailedImportRow[]): Promise<void>;
  /** The live order of the company with each of these clientNumbers, if any. */
  liveOrderIds(companyId: number, clientNumbers: string[]): Promise<Map<string, number>>;
  /**
   * What the delivery services made of these orders of the company so far: each one's providerNumber and status
   * (deleted ones left out), by id. Two columns of a row, not the order: an import's answer reads 100,000 of them.
   */
  registrationsOf(companyId: number, orderIds: number[]): Promise<Map<number, Registration>>;
  /** Makes the company's held create jobs of orders with ids from..to, never tried yet, due at `now`. */
  releaseHeldCreates(companyId: number, fromId: number, toId: number, now: number): Promise<void>;
  /** Is there a live order with this clientNumber in the company (other than `exceptOrderId`)? */
  clientNumberTaken(companyId: number, clientNumber: string, exceptOrderId?: number): Promise<boolean>;
  /** The company's order (canceled included, deleted never), or undefined. */
  findOrder(companyId: number, orderId: number): Promise<StoredOrder | undefined>;
  /** The company's orders among these ids (canceled included, deleted never), by id. */
  findOrders(companyId: number, orderIds: number[]): Promise<Map<number, StoredOrder>>;
  /** The order and its pending jobs, or undefined (as findOrder). */
  findOrderWithJobs(companyId: number, orderId: number): Promise<OrderWithJobs | undefined>;
  /**
   * Reads the order with its jobs, asks `decide` (a pure function: it may throw to refuse) and writes the
   * change it returns, all in one transaction. Returns whether anything was written.
   */
  changeOrder(companyId: number, orderId: number, at: number, decide: (current: OrderWithJobs | undefined) => OrderChange | null): Promise<boolean>;
  /** Records a status and makes it the order's current one. */
  appendStatus(orderId: number, companyId: number, status: NewStatus): Promise<void>;
  /** One window of the company's live orders passing the filter, in the chosen order (newest first by default). */
  listOrders(companyId: number, query: OrderListQuery): Promise<OrderListPage>;
  /**
   * The company's orders (canceled included, deleted never) as the list shows them, all at once: those among
   * `orderIds` in the order given, or every one passing the list's filter, newest first (the xlsx export).
   */
  listedOrders(companyId: number, selection: { orderIds: number[] } | { filter: OrderListFilter }): Promise<ListedOrder[]>;
  /** The cash on delivery of the company's live orders passing the list's filter, by service and asked delivery date. */
  codByDeliveryDate(companyId: number, filter: OrderListFilter): Promise<CodByDeliveryDate[]>;
  /** The company's orders needing attention (live, in an attention status, not marked seen since it was set), counted. */
  attentionCounts(companyId: number): Promise<AttentionCount[]>;
  /** Marks those of the orders that need attention seen until their status changes; returns how many. */
  markAttentionSeen(companyId: number, orderIds: number[]): Promise<number>;
  /** The company's order with this clientNumber: the live one, else the newest canceled one (deleted never). */
  findOrderByClientNumber(companyId: number, clientNumber: string): Promise<StoredOrder | undefined>;
  /** The current (newest) status of each of the company's orders among these ids that has one. */
  latestStatuses(companyId: number, orderIds: number[]): Promise<Map<number, StatusRecord>>;
  /** The company's orders whose current status was recorded after `since`, oldest change first. */
  changedSince(companyId: number, since: number): Promise<OrderStatusPair[]>;
  /** One page of the statuses of the company's orders among these ids, newest first, with the total. */
  statusHistory(companyId: number, orderIds: number[], filter: StatusFilter, page: Page): Promise<{ statuses: StatusRecord[]; total: number }>;
  /**
   * The company's status changes in a range, grouped by order: one page of orders (by id), each with its
   * matching statuses newest first; total counts the orders.
   */
  statusHistoryList(companyId: number, range: StatusRange, filter: StatusFilter, page: Page): Promise<{ rows: { order: StoredOrder; statuses: StatusRecord[] }[]; total: number }>;
  /** The status with its order, when both are still there and the company's. */
  statusWithOrder(companyId: number, statusId: number): Promise<OrderStatusPair | undefined>;
  /** The recorded statuses among these ids (any company: each names its own), by id. */
  statusesById(statusIds: number[]): Promise<Map<number, StatusRecord>>;
  /** A page of the orders tracking asks about, by id. */
  trackedOrders(query: TrackingQuery): Promise<TrackedOrder[]>;
  /** Every status of these orders, each order's in the order recorded. */
  statusesOf(orderIds: number[]): Promise<StatusRecord[]>;
  /**
   * Writes what tracking found, in one write: each change whose order is still live in its `fromKey`
   * (others keep their own story and are asked again next time). A service's status has its own words,
   * so no message of ours stays on the order. Returns the changes written.
   */
  recordTracking(changes: TrackingChange[], at: number): Promise<TrackingChange[]>;
  /** The company's handover, or undefined. */
  findHandover(companyId: number, handoverId: number): Promise<HandoverRecord | undefined>;

  /**
   * Due jobs nobody holds, oldest due first, in the order the queue must keep: an order's jobs one at a
   * time, and a create behind the older jobs of canceled orders with the same clientNumber at its service.
   * Jobs of the pairs in `skip` are left out.
   */
  dueJobs(now: number, limit: number, skip: ServicePair[]): Promise<DueJob[]>;
  /**
   * Takes the jobs for `holder` with a lease until `leaseUntil` (the holder renews it while the call is out), in one write: each
   * attempt is counted before its call and its earliest retry set (`retryAt`), should the holder die mid-call.
   * A job another holder leases (its lease not ended) is left, also when that holder is another instance
   * claiming at the same moment. Returns the jobs it got, with their orders.
   */
  claimJobs(holder: string, candidates: DueJob[], now: number, retryAt: (job: DueJob) => number, leaseUntil: number): Promise<ClaimedJob[]>;
  /** Moves the lease of the holder's jobs among these on to `until` (its calls are still out); returns how many it still held. */
  renewLeases(holder: string, jobIds: number[], until: number): Promise<number>;
  /** Whether the job is still the holder's: not withdrawn (order canceled or deleted) and not taken over. */
  jobStillHeld(holder: string, jobId: number): Promise<boolean>;
  /** Gives a failed job back to the queue. */
  releaseJob(holder: string, jobId: number, failure: JobFailure): Promise<void>;
  /** Jobs of these pairs nobody holds are due no sooner than `at` (a breaker opened). */
  holdJobsUntil(pairs: ServicePair[], at: number): Promise<void>;
  /**
   * Frees the jobs other holders left (a previous run that stopped mid-call); returns how many. Where several
   * instances share the queue (PostgreSQL) none is freed: another holder may be alive; its jobs go when their lease ends.
   */
  releaseAbandonedJobs(holder: string): Promise<number>;
  /** Records registrations together: each job still held is removed and its order registered. Returns the job ids recorded. */
  recordRegistrations(holder: string, registrations: RegistrationToRecord[]): Promise<number[]>;
  /** Removes a held job and leaves its outcome on the order, in one write; false when the job was withdrawn meanwhile. */
  finishJob(holder: string, job: ClaimedJob, outcome: JobOutcome): Promise<boolean>;
  /** The whole queue's size and whether some job is failing. */
  queueCount(): Promise<QueueCount>;
  /** Each company's part of the queue (companies with no job left out). */
  queueCountsByCompany(): Promise<Map<number, QueueCount>>;
  /** The company's queue for its window. */
  queueView(companyId: number): Promise<QueueView>;
  /** The company's order's next job in the queue, with its last error; null when the order has none (or is not the company's). */
  orderJobState(companyId: number, orderId: number): Promise<OrderJobState | null>;
}

// --- handovers: the dispatch screen, its acts, the "Today" count (handovers.ts) --------------------------------

/** A handover's number and when the parcels left. */
export interface HandoverNumber {
  number: string;
  handedAt: number;
}

/** One handover of the named orders of one service (see handOver). */
export interface HandOver {
  companyId: number;
  providerKey: string;
  orderIds: number[];
  at: number;
  /** The handover's places and weight, from the orders it takes. */
  measure(orders: StoredOrder[]): { places: number; weightGrams: number };
}

export type HandOverOutcome =
  | { handover: HandoverNumber & { id: number; orders: number; places: number; weightGrams: number } }
  /** Orders asked that are not waiting for this service's courier: nothing was written. */
  | { notWaiting: number[] };

export interface OrderHandoverStore {
  /** The company's orders waiting for the courier (registered, live, `uploaded`, not handed over), by service, then id. */
  awaitingHandover(companyId: number): Promise<StoredOrder[]>;
  /** How many of them each service has (services with none left out). */
  awaitingHandoverCounts(companyId: number): Promise<Map<string, number>>;
  /** The number the company's next handover to the service gets on the day of `at`: «20261125-sandbox-express», then «…-2». */
  nextHandoverNumber(companyId: number, providerKey: string, at: number): Promise<string>;
  /** The distinct handovers of these orders of the company: null for orders not handed over. */
  handoversOf(companyId: number, orderIds: number[]): Promise<(HandoverNumber | null)[]>;
  /**
   * Hands the orders over together, all or nothing: when every one is waiting for this service's courier, records the
   * handover under the day's next number and marks the orders with it; otherwise writes nothing and names the others.
   */
  handOver(handover: HandOver): Promise<HandOverOutcome>;
}

// --- figures: the "Today" screen, the stuck orders, the next test change (order-figures.ts) -----------------------

/** A service's delivered orders and how long they took from creation to delivery. */
export interface DeliveryTimes {
  providerKey: string;
  delivered: number;
  averageMs: number;
  fastestMs: number;
  slowestMs: number;
}

export interface OrderFiguresStore {
  /** How many of the company's orders the orders list's filter shows, by current status or by service. */
  countOrders(companyId: number, filter: OrderListFilter, by: 'status' | 'service'): Promise<Map<string, number>>;
  /** Per service, how long the delivered orders among those the filter shows took. */
  deliveryTimes(companyId: number, filter: OrderListFilter): Promise<DeliveryTimes[]>;
  /** Live, unfinished orders of the company whose status has not changed since `changedBefore`, longest waiting first; and how many. */
  stuckOrders(companyId: number, query: { changedBefore: number; limit: number; offset: number }): Promise<{ orders: ListedOrder[]; total: number }>;
  /** The company's newest live, registered, unfinished orders at these services (or the one order), at most `limit`. */
  registeredUnfinished(companyId: number, query: { providerKeys: string[]; orderId?: number; limit: number }): Promise<ListedOrder[]>;
}

// --- the status refresh's runs: its tracked orders per company, the statuses a run brought, refresh_runs (refresh-runs.ts)

/** A status refresh that ran: every company's (companyId null, the schedule's) or one company's. */
export interface RefreshRun {
  companyId: number | null;
  trigger: 'schedule' | 'manual';
  startedAt: number;
  finishedAt: number;
  checked: number;
  changed: number;
  statuses: number;
  failed: number;
  /** Why the run stopped short, as the failure said it. */
  error: string | null;
}

/** An order whose current status is one a run brought. */
export interface ReachedStatus {
  orderId: number;
  companyId: number;
  clientNumber: string;
  key: string;
}

export interface StatusRefreshRunsStore {
  /** How many orders tracking asks about (as trackedOrders selects them), per company that has any. */
  trackedCounts(scope: { companyId?: number; leaveOut: readonly string[] }): Promise<Map<number, number>>;
  /** A page of their ids and companies, by id after `afterId`. */
  trackedIds(query: { companyId?: number; leaveOut: readonly string[]; afterId: number; limit: number }): Promise<{ id: number; companyId: number }[]>;
  /** The newest recorded status's id (0 when none): what a run brought is recorded after it. */
  lastStatusId(): Promise<number>;
  /**
   * Live orders (of the company, when given) whose current status is one of `keys` and was recorded after
   * `afterStatusId`: once each, by order id.
   */
  reachedStatuses(afterStatusId: number, keys: readonly string[], companyId?: number): Promise<ReachedStatus[]>;
  /** Records a run and keeps the newest `keep` runs, in one write. */
  recordRefreshRun(run: RefreshRun, keep: number): Promise<void>;
  /** The newest run every company's (companyId null), or every company's or this company's. */
  lastRefreshRun(companyId: number | null): Promise<RefreshRun | null>;
}
