import { AppError } from '../errors';
import { messageText, type MessageRef } from '../../../shared/messages';
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

describe('a refusal of the state table, in the window and on the wire', () => {
  const refusal = (plan: () => unknown) => {
    try {
      plan();
    } catch (error) {
      if (error instanceof AppError) return error.body;
      throw error;
    }
    throw new Error('the plan was not refused');
  };
  const inRussian = (body: { key?: string; params?: MessageRef['params'] }) => messageText({ key: body.key ?? '', params: body.params }, 'ru');

  it('a service without a way to take an order back mid-transfer: the wire keeps its sentence, the window its key with the service', () => {
    const none: ServiceAbilities = { name: 'sandbox-post', update: false, cancel: false, withdraw: false };
    const cancel = refusal(() => planCancel('7', sending, none));
    expect(cancel).toMatchObject({ code: '040306', message: 'Not supported by the delivery service', description: 'sandbox-post cannot cancel an order; wait until its transfer has finished' });
    expect(cancel).toMatchObject({ key: 'order.noCancelWhileSending', params: { service: 'sandbox-post' } });
    expect(inRussian(cancel)).toBe('sandbox-post не может отменить заказ, пока он передаётся; дождитесь окончания передачи');
    const takeBack = refusal(() => planDelete('7', sending, none));
    expect(takeBack).toMatchObject({ description: 'sandbox-post cannot take an order back; wait until its transfer has finished', key: 'order.noTakeBackWhileSending' });
  });

  it('a registered order the service keeps: the interface names its API paths, the window says what to do in its words', () => {
    const update = refusal(() => planUpdate('1', registered, lockers));
    expect(update.description).toBe('sandbox-lockers cannot change a registered order. Cancel it (GET /orders/{orderId}/cancel) and create it again.');
    expect(inRussian(update)).toBe('sandbox-lockers не меняет уже переданные заказы: отмените заказ и создайте его заново');
    const cancel = refusal(() => planCancel('1', registered, post));
    expect(cancel.description).toBe('sandbox-post cannot cancel a registered order. Delete it instead (DELETE /orders/{orderId}); registering it again gives a new tracking number.');
    expect(inRussian(cancel)).toMatch(/^sandbox-post не может отменить уже переданный заказ: удалите его/);
    const remove = refusal(() => planDelete('1', registered, express));
    expect(remove.description).toBe('sandbox-express keeps registered orders: cancel it (GET /orders/{orderId}/cancel) or change it (PUT /orders/{orderId}) instead of deleting it');
    expect(inRussian(remove)).toBe('sandbox-express не удаляет переданные заказы: отмените или измените заказ');
  });

  it('handed over, finished and already canceled say why by key, the wire unchanged', () => {
    const handed = refusal(() => planCancel('3', onWay, express));
    expect(handed.description).toBe('Order 3 has already been handed over to the delivery service (status onWay); it can no longer be canceled');
    expect(inRussian(handed)).toBe('Заказ 3 уже передан службе доставки (статус «В пути»); его больше нельзя отменить');
    expect(inRussian(refusal(() => planCancel('4', delivered, express)))).toBe('Заказ 4 завершён (статус «Вручён»); его больше нельзя отменить');
    const again = refusal(() => planCancel('5', canceled, express));
    expect(again).toMatchObject({ code: '040081', message: 'Order already canceled', description: 'Order 5 is already canceled', key: 'order.alreadyCanceled' });
    expect(inRussian(again)).toBe('Заказ 5 уже отменён');
  });
});
