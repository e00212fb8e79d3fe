import { AppError } from '../errors';
import { phaseOf, planCancel, planDelete, planUpdate, type OrderSnapshot, type ServiceAbilities } from './order-lifecycle';

const express: ServiceAbilities = { name: 'sandbox-express', update: true, cancel: true, withdraw: true };
const lockers: ServiceAbilities = { name: 'sandbox-lockers', update: false, cancel: true, withdraw: true };
const post: ServiceAbilities = { name: 'sandbox-post', update: false, cancel: false, withdraw: true };

const order = (patch: Partial<OrderSnapshot>): OrderSnapshot => ({ state: 'active', statusKey: 'uploaded', providerNumber: 'N-1', jobs: [], ...patch });
const queued = order({ statusKey: 'uploading', providerNumber: null, jobs: [{ action: 'create', attempts: 0 }] });
const sending = order({ statusKey: 'uploading', providerNumber: null, jobs: [{ action: 'create', attempts: 1 }] });
const failed = order({ statusKey: 'uploadingError', providerNumber: null });
const updateFailed = order({ statusKey: 'uploadingError' });
const registered = order({});
const updating = order({ statusKey: 'uploading', jobs: [{ action: 'update', attempts: 0 }] });
const onWay = order({ statusKey: 'onWay' });
const delivered = order({ statusKey: 'delivered' });
const canceled = order({ state: 'canceled', statusKey: 'deliveryCanceled' });

/** The error a plan throws, as `HTTP code`, or the plan itself. */
function outcome(plan: () => unknown) {
  try {
    return plan();
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.body.code}`;
    throw error;
  }
}

describe('the order state table', () => {
  it('tells the phases apart by status, tracking number and the create job', () => {
    expect([queued, sending, failed, updateFailed, registered, updating, onWay, delivered, canceled].map(phaseOf)).toEqual([
      'queued', 'sending', 'failed', 'updateFailed', 'registered', 'updating', 'inTransit', 'final', 'canceled',
    ]);
    expect(phaseOf(order({ statusKey: 'problem' }))).toBe('inTransit');
    expect(phaseOf(order({ statusKey: 'partialReturn' }))).toBe('final');
  });

  describe('uploadingError (the service refused the order)', () => {
    it('PUT changes the data and sends it again, for any delivery service', () => {
      for (const service of [express, lockers, post]) expect(planUpdate('1', failed, service)).toEqual({ kind: 'transfer', job: 'create' });
    });
    it('DELETE removes it for any service, without calling the service that holds nothing', () => {
      for (const service of [express, lockers, post]) expect(planDelete('1', failed, service)).toEqual({ tellService: false });
    });
    it('after a refused change of a registered order, PUT sends the change again and DELETE also takes it back at the service', () => {
      expect(planUpdate('1', updateFailed, express)).toEqual({ kind: 'transfer', job: 'update' });
      expect(planDelete('1', updateFailed, express)).toEqual({ tellService: true });
    });
  });

  describe('registered and assembled, not yet shipped (uploaded)', () => {
    it('PUT updates where the service supports update, else a clear 403', () => {
      expect(planUpdate('1', registered, express)).toEqual({ kind: 'transfer', job: 'update' });
      expect(outcome(() => planUpdate('1', registered, lockers))).toBe('403 040306');
      expect(outcome(() => planUpdate('1', registered, post))).toBe('403 040306');
    });
    it('cancel where the service supports cancel, else 403 040306', () => {
      expect(planCancel('1', registered, express)).toEqual({ tellService: true });
      expect(planCancel('1', registered, lockers)).toEqual({ tellService: true });
      expect(outcome(() => planCancel('1', registered, post))).toBe('403 040306');
    });
    it('DELETE only where the service supports neither update nor cancel', () => {
      expect(planDelete('1', registered, post)).toEqual({ tellService: true });
      expect(outcome(() => planDelete('1', registered, express))).toBe('403 040306');
      expect(outcome(() => planDelete('1', registered, lockers))).toBe('403 040306');
    });
    it('the refusal says what to do instead', () => {
      expect(() => planUpdate('1', registered, post)).toThrow(/Delete it .*new tracking number/);
      expect(() => planUpdate('1', registered, lockers)).toThrow(/Cancel it/);
      expect(() => planDelete('1', registered, lockers)).toThrow(/cancel it/);
      expect(() => planCancel('1', registered, post)).toThrow(/Delete it instead/);
    });
  });

  describe('still uploading (our decision: the document is silent)', () => {
    it('not sent yet: PUT replaces the queued data; cancel and DELETE drop it without calling the service', () => {
      expect(planUpdate('1', queued, post)).toEqual({ kind: 'replace' });
      expect(planCancel('1', queued, post)).toEqual({ tellService: false });
      expect(planDelete('1', queued, express)).toEqual({ tellService: false });
    });
    it('being sent: PUT follows the transfer where the service changes orders, else waits; cancel and DELETE take it back at the service if it got there', () => {
      expect(planUpdate('1', sending, express)).toEqual({ kind: 'transfer', job: 'update' });
      expect(outcome(() => planUpdate('1', sending, lockers))).toBe('400 040000');
      expect(planCancel('1', sending, post)).toEqual({ tellService: true });
      expect(planDelete('1', sending, lockers)).toEqual({ tellService: true });
    });
    it('changes on their way to the service: another PUT follows them; cancel is allowed where the service cancels', () => {
      expect(planUpdate('1', updating, express)).toEqual({ kind: 'transfer', job: 'update' });
      expect(planCancel('1', updating, express)).toEqual({ tellService: true });
      expect(outcome(() => planDelete('1', updating, express))).toBe('403 040306');
    });
  });

  it('handed over (onPointIn and later) refuses every change with a clear error', () => {
    for (const statusKey of ['onPointIn', 'onWay', 'onPointOut', 'readyForRecipient', 'delivering']) {
      const o = order({ statusKey });
      expect(outcome(() => planUpdate('1', o, express))).toBe('400 040000');
      expect(outcome(() => planCancel('1', o, express))).toBe('400 040000');
      expect(outcome(() => planDelete('1', o, post))).toBe('400 040000');
    }
    expect(() => planCancel('7', onWay, express)).toThrow('Order 7 has already been handed over to the delivery service (status onWay); it can no longer be canceled');
  });

  it('finished orders are kept as they are', () => {
    for (const service of [express, post]) {
      expect(outcome(() => planUpdate('1', delivered, service))).toBe('400 040000');
      expect(outcome(() => planCancel('1', delivered, service))).toBe('400 040000');
      expect(outcome(() => planDelete('1', delivered, service))).toBe('400 040000');
    }
  });

  it('a second cancel is refused with 040081; a canceled order can still be deleted from the list, not changed', () => {
    expect(outcome(() => planCancel('1', canceled, express))).toBe('400 040081');
    expect(planDelete('1', canceled, express)).toEqual({ tellService: false });
    expect(outcome(() => planUpdate('1', canceled, express))).toBe('400 040000');
  });
});
