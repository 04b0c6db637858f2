/**
 * Run only where code generation from strings is forbidden (the `no-code-generation` project,
 * as on edge workers): the answer checks there fall to zod, and the drift, webhook and
 * every-past-order tests run again in this project to hold them to the same results.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { type DriftReport, parseWebhook } from 'emporio';
import { compileCheck } from '../../src/schemas/in-place-check.js';
import { OrderEnvelope } from '../../src/schemas/order.js';
import { BASE, makeClient, useMswServer } from '../helpers/server';

const server = useMswServer();

describe('where code generation is forbidden', () => {
  it('this process forbids it, and the in-place check compiles to nothing (zod decides)', () => {
    expect(() => new Function('return 1')).toThrow(EvalError);
    expect(compileCheck(OrderEnvelope)).toBeUndefined();
  });

  it('a conforming order resolves as sent; a drifted one is reported once, and refused when strict', async () => {
    let order: Record<string, unknown> = { code: '1-1', state: 'open', line_items: [{ id: 'a', quantity: 2 }] };
    server.use(http.get(`${BASE}/merchants/ecommerce/orders/:code`, () => HttpResponse.json({ order })));
    const reports: DriftReport[] = [];
    const client = makeClient({ maxRetries: 0, cache: false, hooks: { onDrift: (report) => reports.push(report) } });
    expect(await client.orders.get('1-1')).toEqual(order);
    expect(reports).toEqual([]);

    order = { ...order, line_items: [{ id: 'a', quantity: '2' }] };
    expect(await client.orders.get('1-1')).toEqual(order);
    expect(reports.map((r) => r.path)).toEqual(['$.order.line_items[].quantity']);
    await expect(makeClient({ maxRetries: 0, strict: true }).orders.get('1-1')).rejects.toThrow(/line_items/);

    order = { state: 'open' };
    await expect(client.orders.get('1-1')).rejects.toThrow(/code is missing/);
  });

  it('parseWebhook: a drifted order is delivered and reported', () => {
    const reports: DriftReport[] = [];
    const body = JSON.stringify({ event_type: 'new_order', event_time: '2026-11-25T10:00:00+02:00', order: { code: '1-1', custom: 7 } });
    const event = parseWebhook(body, { onDrift: (report) => reports.push(report) });
    expect(event.order?.code).toBe('1-1');
    expect(reports.map((r) => r.path)).toEqual(['$.order.custom']);
  });
});
