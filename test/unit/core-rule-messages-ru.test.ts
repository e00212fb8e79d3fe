import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderCreateInput } from '../../shared/schemas/order';
import { fieldMessage, type Said } from '../../renderer/i18n/error-messages';
import { createTranslate } from '../../renderer/i18n/translate';
import { orderPayload } from '../helpers/payloads';
import { createTestApp } from '../helpers/test-app';

const ru = createTranslate('ru');

/**
 * Orders that break each synchronous rule of the core (electron/core/orders/order-rules.ts): the messages come
 * from the real check, so a rule added without a Russian translation fails here instead of reaching the form in English.
 */
const badOrders: ReadonlyArray<readonly [string, (o: OrderCreateInput) => void]> = [
  ['an unknown delivery service', (o) => (o.order.providerKey = 'no-such-service')],
  ['a lockers-only service asked to deliver to the door, with cash on delivery', (o) => {
    o.order.providerKey = 'sandbox-lockers';
    o.order.tariffId = 301;
  }],
  ['a service that only takes orders at its warehouse asked to collect', (o) => {
    o.order.providerKey = 'sandbox-post';
    o.order.tariffId = 202;
  }],
  ['a tariff the service does not have', (o) => (o.order.tariffId = 999_999)],
  ['a warehouse-to-point tariff on a door-to-door order', (o) => (o.order.tariffId = 101)],
  ['a door-to-door tariff on a warehouse-to-point order, to a point that does not exist', (o) => {
    o.order.deliveryType = 2;
    o.order.pickupType = 2;
    o.order.pointOutId = 999_999;
  }],
  ['a drop-off point that does not exist', (o) => (o.order.pointInId = 999_998)],
  ['an additional service the delivery service does not have', (o) => (o.extraParams = { noSuchService: '1' })],
  ['a yes-or-no additional service given a word', (o) => (o.extraParams = { insurance: 'maybe' })],
  ['a whole-number additional service given a word', (o) => (o.extraParams = { courierWaitMinutes: 'ten' })],
  ['places heavier than the order', (o) => (o.order.weight = 100)],
  ['items heavier than their place', (o) => (o.places[0].weight = 100)],
  ['cash on delivery below the goods plus delivery', (o) => (o.cost.codCost = 100)],
];

describe('the core’s order rules, as a Russian-speaking shop owner reads them', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  // Each refusal as the window gets it (its wire text, and its key where it has one), by wire text.
  const messages = new Map<string, Said>();

  beforeAll(async () => {
    env = await createTestApp();
    for (const [what, patch] of badOrders) {
      const result = await env.app.dispatch('orders.create', env.shop, orderPayload(`RU-${messages.size}`, patch));
      if (result.ok) throw new Error(`the core accepted ${what}`);
      for (const error of result.error.errors ?? []) messages.set(error.message, error);
    }
  });
  afterAll(() => env?.close());

  it('the bad orders produce the rules’ messages', () => {
    // One or more messages per bad order; fewer means a rule stopped firing and this test stopped covering it.
    expect(messages.size).toBeGreaterThanOrEqual(badOrders.length);
  });

  it('every message the rules return has a Russian translation', () => {
    const untranslated = [...messages].filter(([text, said]) => fieldMessage(said, ru) === text).map(([text]) => text);
    expect(untranslated).toEqual([]);
  });
});
