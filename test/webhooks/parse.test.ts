import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EmporioError,
  type NewOrderEvent,
  type OrderUpdatedEvent,
  type DriftReport,
  type ParseWebhookOptions,
  parseWebhook,
  safeParseWebhook,
  type UnknownWebhookEvent,
  type WebhookEvent,
  WebhookParseError,
} from 'emporio/webhooks';
import { NewOrderEvent as NewOrderEventSchema } from '../../src/schemas/webhook.js';
import { newOrderBody, orderUpdatedBody, recordedOrder } from './events.js';

const encode = (text: string) => new TextEncoder().encode(text);

function parseError(body: unknown, options?: ParseWebhookOptions): WebhookParseError {
  try {
    parseWebhook(body as string, options);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookParseError);
    expect(error).toBeInstanceOf(EmporioError);
    return error as WebhookParseError;
  }
  throw new Error('expected a WebhookParseError');
}

describe('parseWebhook: the two known events', () => {
  it('new_order from a string, bytes, an ArrayBuffer and an object gives the same typed event', () => {
    const body = newOrderBody();
    const text = JSON.stringify(body);
    const bytes = encode(text);
    const inputs = [text, bytes, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), structuredClone(body)];
    for (const input of inputs) {
      const event = parseWebhook(input);
      expect(event).toStrictEqual(body);
      expect(event.event_type).toBe('new_order');
      if (event.event_type === 'new_order') expect((event as NewOrderEvent).order.code).toBe('DEMO-OPEN');
    }
  });

  it('every recorded order parses inside an event, extras kept, equal to what zod returns', () => {
    const folder = new URL('../fixtures/recorded/', import.meta.url);
    const names = readdirSync(folder).filter((n) => n.startsWith('merchants_ecommerce_orders_demo') && !n.includes('fees'));
    expect(names.length).toBe(12);
    for (const name of names) {
      const body = newOrderBody(recordedOrder(name));
      const event = parseWebhook(JSON.stringify(body));
      expect(event).toStrictEqual(NewOrderEventSchema.parse(body));
      expect(event).toStrictEqual(body);
      // A valid object is checked in place and comes back as is: no copy on the hot path.
      expect(parseWebhook(body)).toBe(body);
    }
  });

  it('an object a body parser made (null prototype, a Map inside) is returned as given', () => {
    const order = { ...newOrderBody().order, fees: new Map([['handling_fee', 1]]) };
    const nullPrototype = Object.assign(Object.create(null) as object, { ...newOrderBody(), order });
    const drifts: unknown[] = [];
    const event = parseWebhook(nullPrototype, { onDrift: (report) => drifts.push(report) }) as NewOrderEvent;
    expect(event).toBe(nullPrototype);
    expect(event.order.fees).toBe(order.fees);
    expect(drifts).toEqual([]);
  });

  it('order_updated carries every changes member typed', () => {
    const body = orderUpdatedBody();
    const event = parseWebhook(JSON.stringify(body)) as OrderUpdatedEvent;
    expect(event).toStrictEqual(body);
    const changes = event.changes!;
    expect(changes.state).toEqual({ old: 'open', new: 'accepted' });
    expect(changes.expires_at?.new).toBe('2021-06-26T13:12:29+03:00');
    expect(changes.dispatch_until?.old).toBe('2021-06-28T13:12:29+03:00');
    expect(changes.courier?.new).toBe('Marketplace Last Mile');
    expect(changes.courier_voucher?.new).toBe('https://example.test/voucher.pdf');
    expect(changes.courier_tracking_codes?.new).toEqual(['123456789', '987654321']);
    expect(changes.fbs_delivery_note?.new).toBe('ΤΛΑΠΟ0454022');
    expect(changes.fbs_delivery_note_url?.new).toBe('https://example.test/note.pdf');
    expect(changes.pickup_window?.new).toEqual({ from: '2026-04-01T12:00:00+03:00', to: '2026-04-01T14:00:00+03:00' });
    expect(changes.number_of_parcels?.new).toBe(2);
    expect(changes.pickup_address?.new).toContain('Νέα Ιωνία');
  });

  it('is tolerant: missing event_time, null changes, unknown members and enum values, minimal order', () => {
    const body = {
      event_type: 'order_updated',
      order: { code: 'DEMO-X', state: 'on_hold', brand_new_field: { a: 1 } },
      changes: { state: { old: null, new: 'on_hold' }, something_new: { old: 1, new: 2 } },
    };
    expect(parseWebhook(JSON.stringify(body))).toStrictEqual(body);
    expect(parseWebhook({ event_type: 'new_order', order: { code: 'A' }, changes: null })).toEqual({
      event_type: 'new_order',
      order: { code: 'A' },
      changes: null,
    });
  });

  it('an unknown event_type is kept, not thrown away', () => {
    const body = { event_type: 'order_extended', event_time: '2026-01-01T00:00:00+02:00', order: { code: 'X-1' }, extra: [1] };
    const event = parseWebhook(JSON.stringify(body)) as UnknownWebhookEvent;
    expect(event).toEqual({ event_type: 'order_extended', event_time: body.event_time, order: { code: 'X-1' }, raw: body });

    // Nothing about an unknown event is a broken shape: what does not fit is left in raw only.
    const odd = { event_type: 'refund_issued', event_time: 17, order: 'X-2' };
    expect(parseWebhook(odd)).toEqual({ event_type: 'refund_issued', raw: odd });
  });

  it("the documented pattern routes each event: 'raw' in event first, then switch on event_type", () => {
    // The compile-time side (what each branch's type is) is in test/types/.
    const route = (event: WebhookEvent): string => {
      if ('raw' in event) return `unknown ${event.event_type}`;
      switch (event.event_type) {
        case 'new_order':
          return `new ${event.order.code}`;
        case 'order_updated':
          return `updated ${event.order.code} to ${event.changes?.state?.new}`;
        case 'merchant_return_created':
        case 'merchant_return_updated':
          return `return ${event.return.return_code} ${event.return.state}`;
      }
    };
    expect(route(parseWebhook(JSON.stringify(newOrderBody())))).toBe('new DEMO-OPEN');
    expect(route(parseWebhook(JSON.stringify(orderUpdatedBody())))).toBe('updated DEMO-ACCEPTED to accepted');
    expect(route(parseWebhook({ event_type: 'order_extended', order: { code: 'X-1' } }))).toBe('unknown order_extended');
  });
});

describe('parseWebhook: failures are WebhookParseError with a path and a reason', () => {
  it.each([
    ['empty string', '', 'empty body'],
    ['whitespace only', '  \n ', 'empty body'],
    ['empty bytes', new Uint8Array(0), 'empty body'],
    ['null', null, 'empty body'],
    ['undefined', undefined, 'empty body'],
    ['invalid JSON', '{"event_type": "new_order",', 'body is not valid JSON'],
    ['JSON with a trailing comma', '{"event_type":"new_order",}', 'body is not valid JSON'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'body is not valid UTF-8'],
    ['a JSON array', '[]', 'expected a JSON object, received array'],
    ['a JSON string', '"new_order"', 'expected a JSON object, received string'],
    ['a number', 42, 'expected a JSON object, received number'],
  ])('%s', (_label, body, reason) => {
    const error = parseError(body);
    expect(error.reason).toBe(reason);
    expect(error.path).toEqual([]);
  });

  it.each([
    ['missing event_type', { order: { code: 'A' } }, ['event_type'], 'event_type is missing'],
    ['event_type not a string', { event_type: 1, order: { code: 'A' } }, ['event_type'], 'expected a string, received number'],
    ['missing order', { event_type: 'new_order' }, ['order'], 'order is missing'],
    ['order as a string', { event_type: 'new_order', order: 'A' }, ['order'], 'expected object, received string'],
    ['order as a list', { event_type: 'order_updated', order: [{ code: 'A' }] }, ['order'], 'expected object, received array'],
    ['missing code', { event_type: 'new_order', order: { state: 'open' } }, ['order', 'code'], 'code is missing'],
    ['code as a number', { event_type: 'new_order', order: { code: 42 } }, ['order', 'code'], 'expected string, received number'],
  ])('what the SDK cannot use is refused, strict or not: %s', (_label, body, path, reason) => {
    for (const input of [body, JSON.stringify(body)]) {
      for (const strict of [false, true]) {
        const error = parseError(input, { strict });
        expect(error.path).toEqual(path);
        expect(error.reason).toBe(reason);
        expect(error.message).toContain(reason);
      }
    }
  });

  it.each([
    [
      'customer as a string',
      { event_type: 'order_updated', order: { code: 'A', customer: 'John' } },
      ['order', 'customer'],
      { path: '$.order.customer', expected: 'object', received: 'string' },
    ],
    [
      'line_items not an array',
      { event_type: 'new_order', order: { code: 'A', line_items: {} } },
      ['order', 'line_items'],
      { path: '$.order.line_items', expected: 'array', received: 'object' },
    ],
    [
      'a line item price as a string',
      { event_type: 'new_order', order: { code: 'A', line_items: [{ id: 'x' }, { unit_price: '12.5' }] } },
      ['order', 'line_items', 1, 'unit_price'],
      { path: '$.order.line_items[].unit_price', expected: 'number', received: 'string' },
    ],
    [
      'a changes member of the wrong type',
      { event_type: 'order_updated', order: { code: 'A' }, changes: { number_of_parcels: { old: 1, new: '2' } } },
      ['changes', 'number_of_parcels', 'new'],
      { path: '$.changes.number_of_parcels.new', expected: 'number', received: 'string' },
    ],
    [
      'changes as an array',
      { event_type: 'order_updated', order: { code: 'A' }, changes: [] },
      ['changes'],
      { path: '$.changes', expected: 'object', received: 'array' },
    ],
  ])('drift passes as sent and is reported; strict refuses it: %s', (_label, body, path, report) => {
    for (const input of [body, JSON.stringify(body)]) {
      const reports: DriftReport[] = [];
      const event = parseWebhook(input, { onDrift: (r) => reports.push(r) });
      expect(event).toStrictEqual(body);
      expect(reports).toEqual([{ api: 'webhook', method: 'POST', url: '', ...report }]);
      // Without a hook it passes silently.
      expect(parseWebhook(input)).toStrictEqual(body);
      const error = parseError(input, { strict: true });
      expect(error.path).toEqual(path);
      expect(error.reason).toBe(`expected ${report.expected}, received ${report.received}`);
    }
  });

  it('one report per schema path and call, whatever the number of line items; a throwing hook changes nothing', () => {
    const body = { event_type: 'new_order', order: { code: 'A', line_items: [{ quantity: '1' }, { quantity: '2' }, { quantity: 3 }] } };
    const reports: DriftReport[] = [];
    expect(parseWebhook(body, { onDrift: (r) => reports.push(r) })).toBe(body);
    expect(reports.map((r) => r.path)).toEqual(['$.order.line_items[].quantity']);
    expect(
      parseWebhook(body, {
        onDrift: () => {
          throw new Error('metrics down');
        },
      }),
    ).toBe(body);
  });

  it('a report carries the types, never the value', () => {
    const secret = 'Ιωάννης Παπαδόπουλος, 6912345678';
    const reports: DriftReport[] = [];
    parseWebhook({ event_type: 'new_order', order: { code: 'A', customer: secret, comments: 7 } }, { onDrift: (r) => reports.push(r) });
    expect(reports).toHaveLength(2);
    expect(JSON.stringify(reports)).not.toContain('Ιωάννης');
  });

  it('the message shows the JSON path', () => {
    expect(parseError({ event_type: 'new_order', order: { code: 'A', line_items: [5] } }, { strict: true }).message).toBe(
      'expected object, received number at $.order.line_items[0]',
    );
    expect(parseError({ event_type: 'new_order', order: { line_items: [5] } }).message).toBe('code is missing at $.order.code');
  });

  it('refuses a body over maxBodyBytes before parsing it (strings by UTF-8 size, bytes by length)', () => {
    const text = JSON.stringify(newOrderBody());
    const limit = text.length - 1;
    expect(parseError(text, { maxBodyBytes: limit }).reason).toBe(`body is larger than ${limit} bytes`);
    expect(parseError(encode(text), { maxBodyBytes: limit }).reason).toBe(`body is larger than ${limit} bytes`);
    // Fewer UTF-16 units than the limit, more UTF-8 bytes: Greek letters are 2 bytes each.
    const greek = JSON.stringify({ event_type: 'x', note: 'Αθήνα'.repeat(100) });
    expect(greek.length).toBeLessThan(700);
    expect(encode(greek).length).toBeGreaterThan(1000);
    expect(parseError(greek, { maxBodyBytes: 1000 }).reason).toBe('body is larger than 1000 bytes');
    expect(parseWebhook(greek, { maxBodyBytes: encode(greek).length }).event_type).toBe('x');
    // The default is 1 MiB: not even JSON-parsed.
    expect(parseError(`${' '.repeat(1024 * 1024)}{}`).reason).toBe('body is larger than 1048576 bytes');
    expect(parseWebhook(text, { maxBodyBytes: encode(text).length }).event_type).toBe('new_order');
  });

  it('safeParseWebhook returns the event or the error', () => {
    const ok = safeParseWebhook(JSON.stringify(newOrderBody()));
    expect(ok.success).toBe(true);
    expect(ok.event?.event_type).toBe('new_order');
    const bad = safeParseWebhook('{');
    expect(bad.success).toBe(false);
    expect(bad.error).toBeInstanceOf(WebhookParseError);
    expect(bad.error?.reason).toBe('body is not valid JSON');
  });

  it('a hostile object (throwing getter) still fails with WebhookParseError', () => {
    const body = { event_type: 'new_order' } as Record<string, unknown>;
    Object.defineProperty(body, 'order', { enumerable: true, get: () => { throw new RangeError('boom'); } });
    expect(parseError(body).reason).toBe('body could not be read as an event');
  });
});

describe('prototype pollution', () => {
  const hostile = `{
    "__proto__": { "polluted": "root" },
    "event_type": "new_order",
    "constructor": { "prototype": { "polluted": "constructor" } },
    "order": {
      "code": "A-1",
      "__proto__": { "polluted": "order", "code": "forged" },
      "customer": { "__proto__": { "polluted": "customer" }, "address": { "__proto__": { "isAdmin": true } } },
      "line_items": [{ "__proto__": { "polluted": "item" }, "prototype": { "polluted": 1 } }],
      "prototype": { "polluted": "prototype" }
    },
    "changes": { "__proto__": { "polluted": "changes" }, "state": { "__proto__": { "old": "forged" }, "new": "x" } }
  }`;

  function assertClean() {
    const plain = {} as Record<string, unknown>;
    expect(plain.polluted).toBeUndefined();
    expect(plain.isAdmin).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Array.prototype).not.toHaveProperty('polluted');
  }

  it('a known event: no prototype changes, anywhere, and no forged inherited values', () => {
    for (const input of [hostile, encode(hostile), JSON.parse(hostile)]) {
      const event = parseWebhook(input) as OrderUpdatedEvent & Record<string, unknown>;
      assertClean();
      const order = event.order as unknown as Record<string, unknown>;
      for (const value of [event, order, order.customer, (order.customer as Record<string, unknown>).address, (order.line_items as unknown[])[0], event.changes, event.changes?.state]) {
        expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
        expect((value as Record<string, unknown>).polluted).toBeUndefined();
      }
      expect(order.code).toBe('A-1');
      expect(event.changes?.state?.old).toBeUndefined();
      expect(((order.customer as Record<string, unknown>).address as Record<string, unknown>).isAdmin).toBeUndefined();
      // constructor and prototype keys stay plain data.
      expect(event.constructor).toEqual({ prototype: { polluted: 'constructor' } });
      expect(Object.getPrototypeOf(event.constructor)).toBe(Object.prototype);
    }
  });

  it('an unknown event: raw is plain data and pollutes nothing', () => {
    const event = parseWebhook(hostile.replace('"new_order"', '"brand_new"')) as UnknownWebhookEvent;
    assertClean();
    expect(Object.getPrototypeOf(event.raw)).toBe(Object.prototype);
    expect((event.raw as Record<string, unknown>).polluted).toBeUndefined();
    expect(event.order?.code).toBe('A-1');
    expect(Object.getPrototypeOf(event.order)).toBe(Object.prototype);
  });
});

describe('parseWebhook never throws anything but WebhookParseError (fuzz)', () => {
  const base = JSON.stringify(orderUpdatedBody());

  it('on mutated payloads', () => {
    fc.assert(
      fc.property(fc.nat(base.length - 1), fc.nat(base.length), fc.string({ maxLength: 8 }), (at, cut, insert) => {
        const mutated = base.slice(0, at) + insert + base.slice(Math.min(base.length, at + (cut % 6)));
        const result = safeParseWebhook(mutated);
        if (!result.success) expect(result.error).toBeInstanceOf(WebhookParseError);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom('new_order', 'order_updated', 'other'), (value, type) => {
        for (const body of [value, { event_type: type, order: value }, { event_type: type, order: { code: 'A', customer: value } }]) {
          const result = safeParseWebhook(JSON.stringify(body) ?? '');
          if (!result.success) expect(result.error).toBeInstanceOf(WebhookParseError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
