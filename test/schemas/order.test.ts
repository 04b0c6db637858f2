import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AcceptParams,
  ID_TYPES,
  ORDER_STATES,
  Order,
  OrderEnvelope,
  RejectParams,
  TrackingDetails,
} from '../../src/schemas/order.js';
import { SuccessAnswer } from '../../src/schemas/common.js';

const folder = new URL('../fixtures/recorded/', import.meta.url);

interface Recording {
  request: { method: string; url: string };
  response: { status: number; body_is_json: boolean; body: unknown };
}

const recordings = readdirSync(folder)
  .filter((name) => name.startsWith('merchants_ecommerce_orders_') && name.endsWith('.json'))
  .sort()
  .map((name) => ({ name, recording: JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as Recording }));

const orderBodies = recordings.filter(
  ({ recording }) =>
    recording.response.body_is_json && typeof recording.response.body === 'object' && 'order' in (recording.response.body as object),
);

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('Order schema against the real recordings', () => {
  it('finds the recorded order bodies', () => {
    expect(orderBodies.length).toBe(13);
  });

  it.each(orderBodies.map(({ name, recording }) => [name, recording.response.body]))(
    '%s parses with nothing lost or added',
    (_name, body) => {
      const result = OrderEnvelope.safeParse(clone(body));
      expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
      // Every field, known or not, comes out exactly as it went in.
      expect(result.data).toStrictEqual(body);
    },
  );

  it('keeps fields the spec does not list (line item shop_variation_uid and size, fees.fbs_fee)', () => {
    const invoice39a = orderBodies.find(({ name }) => name.endsWith('demo_invoice39a.json'))!;
    const { order } = OrderEnvelope.parse(clone(invoice39a.recording.response.body));
    // Unlisted fields are kept at run time; the type lists only the documented ones.
    const item = order.line_items?.[0] as Record<string, unknown> | undefined;
    expect(item?.shop_variation_uid).toBe('40575312-14');
    expect(item?.size).toEqual(expect.objectContaining({ shop_value: '12-14', ean: '1234567890321' }));
    expect(order.invoice_details?.vat_exclusion_representative?.id_type).toBe(ID_TYPES[0].value);

    const fbs = orderBodies.find(({ name }) => name.endsWith('demo_fbs.json'))!;
    expect(OrderEnvelope.parse(clone(fbs.recording.response.body)).order.fees).toEqual({ fbs_fee: 1.2 });
  });

  it('accepts sandbox codes and unknown enum values', () => {
    const order = Order.parse({ code: 'DEMO-OPEN', state: 'on_hold', courier: 'Some New Courier', payment_method: 'crypto' });
    expect(order).toEqual({ code: 'DEMO-OPEN', state: 'on_hold', courier: 'Some New Courier', payment_method: 'crypto' });
    expect(ORDER_STATES).toHaveLength(11);
  });

  it('accepts null and absent for every field but code', () => {
    expect(Order.parse({ code: '191029-5130474' })).toEqual({ code: '191029-5130474' });
    const nulls = { code: 'X', customer: null, line_items: null, fees: null, pickup_window: null, invoice_details: null };
    expect(Order.parse(nulls)).toEqual(nulls);
  });

  it('the recording whose body is not JSON stays unparseable (the transport reports it)', () => {
    const fees = recordings.find(({ name }) => name.endsWith('demo_fees.json'))!;
    expect(fees.recording.response.body_is_json).toBe(false);
    expect(() => JSON.parse(fees.recording.response.body as string)).toThrow(SyntaxError);
  });

  it('action answers fit SuccessAnswer', () => {
    const actions = recordings.filter(({ recording }) => recording.request.method === 'POST');
    expect(actions.length).toBeGreaterThan(0);
    for (const { recording } of actions) expect(SuccessAnswer.parse(recording.response.body)).toEqual({ success: true });
  });
});

describe('broken order shapes fail with a path', () => {
  const base = () => clone(orderBodies[0]!.recording.response.body) as { order: Record<string, unknown> };

  it.each([
    ['customer as a string', (b: { order: Record<string, unknown> }) => { b.order.customer = 'John Doe'; }, ['order', 'customer']],
    ['missing code', (b: { order: Record<string, unknown> }) => { delete b.order.code; }, ['order', 'code']],
    ['line_items not an array', (b: { order: Record<string, unknown> }) => { b.order.line_items = { id: 'x' }; }, ['order', 'line_items']],
    ['a line item not an object', (b: { order: Record<string, unknown> }) => { b.order.line_items = ['x']; }, ['order', 'line_items', 0]],
  ] as const)('%s', (_label, breakIt, path) => {
    const body = base();
    breakIt(body);
    const result = OrderEnvelope.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it('missing root key', () => {
    const result = OrderEnvelope.safeParse({ code: 'DEMO-OPEN' });
    expect(result.error?.issues[0]?.path).toEqual(['order']);
  });
});

describe('order request schemas are strict', () => {
  it('AcceptParams', () => {
    expect(AcceptParams.parse({ pickup_location: 'YlpD0KROym', pickup_window: 2, number_of_parcels: 1 })).toEqual({
      pickup_location: 'YlpD0KROym',
      pickup_window: 2,
      number_of_parcels: 1,
    });
    const bad = (value: unknown) => AcceptParams.safeParse(value).error?.issues.map((i) => [i.path, i.message]);
    expect(bad({ pickup_location: '', pickup_window: 2 })).toEqual([[['pickup_location'], 'expected a non-empty string']]);
    expect(bad({ pickup_location: 'a', pickup_window: 1.5 })).toEqual([[['pickup_window'], 'expected an integer']]);
    expect(bad({ pickup_location: 'a', pickup_window: 1, number_of_parcels: 0 })).toEqual([
      [['number_of_parcels'], 'expected a positive integer'],
    ]);
    expect(bad({ pickup_location: 'a', pickup_window: 1, pickup_windw: 2 })).toEqual([[[], 'unknown key(s): pickup_windw']]);
  });

  it('RejectParams: line items or a whole-order reason, exactly one', () => {
    const byItems = { line_items: [{ id: 'jn231kb12u', reason_id: 2 }, { id: 'opaoe8M3pZ', reason_id: 4, available_quantity: 1 }] };
    expect(RejectParams.parse(byItems)).toEqual(byItems);
    expect(RejectParams.parse({ rejection_reason_other: 'closed' })).toEqual({ rejection_reason_other: 'closed' });

    const bad = (value: unknown) => RejectParams.safeParse(value).error?.issues.map((i) => [i.path, i.message]);
    expect(bad({ ...byItems, rejection_reason_other: 'x' })).toEqual([[[], 'give line_items or rejection_reason_other, not both']]);
    expect(bad({})).toEqual([[[], 'expected an object with line_items or rejection_reason_other']]);
    expect(bad({ line_items: [] })).toEqual([[['line_items'], 'expected at least one line item']]);
    expect(bad({ line_items: [{ id: '', reason_id: 1 }] })).toEqual([[['line_items', 0, 'id'], 'expected a non-empty string']]);
    expect(bad({ line_items: [{ id: 'a', reason_id: 1, available_quantity: -1 }] })).toEqual([
      [['line_items', 0, 'available_quantity'], 'expected a non-negative integer'],
    ]);
    expect(bad({ line_items: [{ id: 'a', reason: 1 }] })?.map(([path]) => path)).toEqual([['line_items', 0, 'reason_id'], ['line_items', 0]]);
    expect(bad({ rejection_reason_other: '' })).toEqual([[['rejection_reason_other'], 'expected a non-empty string']]);
  });

  it('TrackingDetails', () => {
    const details = [{ courier: 'ACS', tracking_code: '123' }];
    expect(TrackingDetails.parse(details)).toEqual(details);
    expect(TrackingDetails.safeParse([]).error?.issues[0]?.message).toBe('expected at least one tracking detail');
    expect(TrackingDetails.safeParse([{ courier: 'ACS', tracking_code: '' }]).error?.issues[0]?.path).toEqual([0, 'tracking_code']);
    expect(TrackingDetails.safeParse([{ courier: 'ACS', tracking_code: '1', extra: 1 }]).success).toBe(false);
  });
});
