import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canSetAsNotReady, canSetAsReady } from 'emporio';
import { Order, OrderEnvelope } from '../../src/schemas/order.js';

/** An order as the SDK returns it: a recording, parsed by the answer schema. */
function recorded(name: string): Order {
  const file = new URL(`../fixtures/recorded/merchants_ecommerce_orders_${name}.json`, import.meta.url);
  return OrderEnvelope.parse(JSON.parse(readFileSync(file, 'utf8')).response.body).order;
}

const SLM = 'Marketplace Last Mile';
// The sandbox has no order served by the marketplace's own courier: the core order is
// DEMO-ACCEPTED shipped by it, as the service sends such orders.
const core = Order.parse({ ...recorded('demo_accepted'), courier: SLM, is_ready_for_dispatch: false });
const ready = { ...core, is_ready_for_dispatch: true };

describe('canSetAsReady (document 1, rule 3)', () => {
  it('allows a core order, accepted, not ready, shipped by the marketplace courier', () => {
    expect(canSetAsReady(core)).toEqual({ ok: true, reasons: [] });
    expect(canSetAsReady({ ...core, fulfillment_mode: 'core', shipping_cost: null })).toEqual({ ok: true, reasons: [] });
  });

  it.each([
    ['an FBS order', { ...recorded('demo_fbs'), courier: SLM }, ['order is fulfilled by the marketplace warehouse (FBS: fulfilled_by_marketplace is true)']],
    ['a store pickup', { ...recorded('demo_store_pickup'), state: 'accepted', courier: SLM }, ['order is a store pickup (store_pickup is true)']],
    ['a merchant-fulfilled order', { ...core, shipping_cost: 3.5 }, ['order is fulfilled by the merchant (FBM: shipping_cost is present)']],
    ['an order of another courier', recorded('demo_accepted'), [`courier is "CourierCenter", not the marketplace's own last-mile courier ("${SLM}")`]],
    ['an open order', { ...recorded('demo_open'), courier: SLM }, ['order state is "open", not "accepted"']],
    ['a dispatched order', { ...core, state: 'dispatched' }, ['order state is "dispatched", not "accepted"']],
    ['an order already ready', ready, ['order is already marked ready for dispatch']],
    ['an order of another fulfillment mode', { ...core, fulfillment_mode: 'fbm' }, ['fulfillment_mode is "fbm", not "core"']],
    ['an order with no state or courier', { code: 'X' }, ['order state is unknown, not "accepted"', `courier is unknown, not the marketplace's own last-mile courier ("${SLM}")`]],
  ])('refuses %s with one reason per failed prerequisite', (_kind, order, reasons) => {
    expect(canSetAsReady(order as Order)).toEqual({ ok: false, reasons });
  });

  it('lists every failed prerequisite of a recorded FBS order', () => {
    const result = canSetAsReady(recorded('demo_fbs'));
    expect(result.ok).toBe(false);
    expect(result.reasons).toHaveLength(2);
    expect(result.reasons.join('\n')).toMatch(/courier is "CourierCenter"[\s\S]*FBS/);
  });

  it('a merchant-fulfilled order with its own courier fails both checks', () => {
    const fbm = { ...recorded('demo_accepted'), courier: 'ACS', shipping_cost: 2.9 };
    expect(canSetAsReady(fbm).reasons).toEqual([
      `courier is "ACS", not the marketplace's own last-mile courier ("${SLM}")`,
      'order is fulfilled by the merchant (FBM: shipping_cost is present)',
    ]);
  });

  it('does not depend on set_as_ready_required (it says whether the call is required, not allowed)', () => {
    const enrolled: Order = { ...core, set_as_ready_required: true };
    const notEnrolled: Order = { ...core, set_as_ready_required: false };
    expect(canSetAsReady(enrolled).ok).toBe(true);
    expect(canSetAsReady(notEnrolled).ok).toBe(true);
  });
});

describe('canSetAsNotReady (document 1, rule 4)', () => {
  it('allows an accepted order marked ready, shipped by the marketplace courier', () => {
    expect(canSetAsNotReady(ready)).toEqual({ ok: true, reasons: [] });
  });

  it.each([
    ['an order not marked ready', core, ['order is not marked ready for dispatch']],
    ['an order of another courier', { ...ready, courier: 'ACS' }, [`courier is "ACS", not the marketplace's own last-mile courier ("${SLM}")`]],
    ['a picked-up (dispatched) order', { ...ready, state: 'dispatched' }, ['order state is "dispatched", not "accepted"']],
    ['a recorded FBS order, dispatched', recorded('demo_fbs_dispatched'), [
      'order state is "dispatched", not "accepted"',
      'order is not marked ready for dispatch',
      `courier is "CourierCenter", not the marketplace's own last-mile courier ("${SLM}")`,
    ]],
    ['an open order', { ...recorded('demo_open'), courier: SLM, is_ready_for_dispatch: true }, ['order state is "open", not "accepted"']],
    ['a rejected order', { ...ready, state: 'rejected' }, ['order state is "rejected", not "accepted"']],
    ['an order with no state', { ...ready, state: undefined }, ['order state is unknown, not "accepted"']],
    ['an order with no courier', { ...ready, courier: null }, [`courier is unknown, not the marketplace's own last-mile courier ("${SLM}")`]],
    ['an order with is_ready_for_dispatch absent', { ...ready, is_ready_for_dispatch: undefined }, ['order is not marked ready for dispatch']],
    ['an open order of another courier, not ready', recorded('demo_open'), [
      'order state is "open", not "accepted"',
      'order is not marked ready for dispatch',
      `courier is "CourierCenter", not the marketplace's own last-mile courier ("${SLM}")`,
    ]],
  ])('refuses %s, one reason per failed prerequisite', (_kind, order, reasons) => {
    expect(canSetAsNotReady(order as Order)).toEqual({ ok: false, reasons });
  });

  // Rule 4 names no core-order condition (unlike rule 3): an accepted order marked ready and
  // shipped by the marketplace courier may be set as not ready whatever its kind.
  it.each([
    ['a core order already ready', ready],
    ['a core order with fulfillment_mode "core"', { ...ready, fulfillment_mode: 'core' }],
    ['an FBS order', { ...recorded('demo_fbs'), courier: SLM, is_ready_for_dispatch: true }],
    ['a store pickup', { ...recorded('demo_store_pickup'), state: 'accepted', courier: SLM, is_ready_for_dispatch: true }],
    ['a merchant-fulfilled order (fulfillment_mode "fbm")', { ...ready, fulfillment_mode: 'fbm' }],
    ['a merchant-fulfilled order (shipping_cost present)', { ...ready, shipping_cost: 3.5 }],
  ])('allows %s that is accepted, ready and shipped by the marketplace courier (no core check)', (_kind, order) => {
    expect(canSetAsNotReady(order as Order)).toEqual({ ok: true, reasons: [] });
  });
});

describe('the two helpers on orders of each kind', () => {
  it.each([
    ['core, accepted, not ready', true, false, core],
    ['core, accepted, already ready', false, true, ready],
    ['FBS, ready', false, true, { ...recorded('demo_fbs'), courier: SLM, is_ready_for_dispatch: true }],
    ['FBS, not ready', false, false, { ...recorded('demo_fbs'), courier: SLM, is_ready_for_dispatch: false }],
    ['store pickup, not ready', false, false, { ...recorded('demo_store_pickup'), state: 'accepted', courier: SLM }],
    ['store pickup, ready', false, true, { ...recorded('demo_store_pickup'), state: 'accepted', courier: SLM, is_ready_for_dispatch: true }],
    ['merchant-fulfilled, not ready', false, false, { ...core, fulfillment_mode: 'fbm' }],
    ['merchant-fulfilled, ready', false, true, { ...ready, shipping_cost: 3.5 }],
    ['other courier, not ready', false, false, { ...core, courier: 'ACS' }],
    ['other courier, ready', false, false, { ...ready, courier: 'ACS' }],
    ['not accepted (open), not ready', false, false, { ...core, state: 'open' }],
    ['not accepted (open), ready', false, false, { ...ready, state: 'open' }],
  ])('%s: canSetAsReady %s, canSetAsNotReady %s', (_kind, asReady, asNotReady, order) => {
    const both = [canSetAsReady(order as Order), canSetAsNotReady(order as Order)];
    expect(both.map((e) => e.ok)).toEqual([asReady, asNotReady]);
    // ok exactly when there is no reason
    for (const e of both) expect(e.reasons.length === 0).toBe(e.ok);
  });
});
