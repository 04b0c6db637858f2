/**
 * Every file of `fixtures/recorded-2026h2/` (the service's recordings and documented examples
 * since June 2026), enumerated from the folder so that a new file cannot be missed: each goes
 * through the SDK (answered by msw as recorded), and through the mock marketplace where it
 * serves that path (the kit's answer to the same situation: an error body as recorded, a
 * success answer carrying every recorded member with the recorded type). A file no replay
 * knows fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ApiError, MarketplaceClient, parseWebhook, type Return, type ReviewOption } from 'emporio';
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { merchantHeaders, PDF } from '../testing/helpers.js';
import { orderUpdatedBody } from '../webhooks/events.js';
import { BASE, useMswServer } from '../helpers/server.js';

const DIR = new URL('../fixtures/recorded-2026h2/', import.meta.url);
const NAMES = readdirSync(DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.slice(0, -'.json'.length))
  .sort();

type Json = Record<string, unknown>;
interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; params: Json | null };
  response: { status: number; body: Json };
}
const read = (name: string): Json => JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8')) as Json;
const isExchange = (file: Json): file is Json & Exchange => 'request' in file && 'response' in file;
const EXCHANGES = NAMES.filter((name) => isExchange(read(name)));
const PAYLOADS = NAMES.filter((name) => !isExchange(read(name)));

/** The recorded parameters (keys written `:name`) as wire names; `<...>` placeholders become usable stand-ins. */
const STAND_INS: Record<string, unknown> = { reschedule_date: '2026-09-27', pickup_location: 'not-offered', option: 'not_offered' };
function paramsOf(exchange: Exchange): Json | undefined {
  if (!exchange.request.params) return undefined;
  const unprefix = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(unprefix)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.replace(/^:/, ''), unprefix(inner)]))
        : value;
  const params = unprefix(exchange.request.params) as Json;
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === 'string' && /^<.*>$/.test(value)) params[key] = STAND_INS[key];
  }
  return params;
}

/** How the SDK makes each recorded request; `wrap` turns the resolved value back into the answer's body. */
interface Route {
  method: string;
  path: RegExp;
  call: (client: MarketplaceClient, id: string, params: Json | undefined, url: URL) => Promise<unknown>;
  wrap?: (value: unknown) => Json;
  /** The request goes as multipart with this file field (the recorded params describe the file). */
  fileField?: string;
}
const ROUTES: Route[] = [
  { method: 'GET', path: /^\/merchants\/ecommerce\/returns\/([^/]+)$/, call: (c, id) => c.returns.get(id), wrap: (r) => ({ return: r }) },
  { method: 'POST', path: /^\/merchants\/ecommerce\/returns\/([^/]+)\/review$/, call: (c, id, p) => c.returns.review(id, p as never) },
  {
    method: 'GET',
    path: /^\/merchants\/ecommerce\/orders\/([^/]+)$/,
    call: (c, id, _, url) => c.orders.get(id, { actionOptions: url.searchParams.get('action_options') === '1' }),
    wrap: (order) => ({ order }),
  },
  { method: 'POST', path: /^\/merchants\/ecommerce\/orders\/([^/]+)\/reschedule_pickup$/, call: (c, id, p) => c.orders.reschedulePickup(id, p as never) },
  { method: 'POST', path: /^\/merchants\/ecommerce\/orders\/([^/]+)\/relocate_pickup$/, call: (c, id, p) => c.orders.relocatePickup(id, p as never) },
  { method: 'POST', path: /^\/merchants\/ecommerce\/orders\/([^/]+)\/request_voucher$/, call: (c, id) => c.orders.requestVoucher(id) },
  {
    method: 'POST',
    path: /^\/merchants\/ecommerce\/orders\/([^/]+)\/credit_invoices$/,
    call: (c, id) => c.orders.uploadCreditInvoice(id, PDF),
    fileField: 'credit_invoice_file',
  },
  { method: 'POST', path: /^\/merchants\/products\/batch()$/, call: (c, _, p) => c.products.batchUpdate((p as { data: never }).data) },
  { method: 'GET', path: /^\/merchants\/products\/batch\/([^/]+)\/status$/, call: (c, id) => c.products.batchStatus(id) },
];

function routeOf(exchange: Exchange): { route: Route; id: string; url: URL } {
  const url = new URL(exchange.request.url);
  for (const route of ROUTES) {
    const match = route.method === exchange.request.method ? route.path.exec(url.pathname) : null;
    if (match) return { route, id: decodeURIComponent(match[1] ?? ''), url };
  }
  throw new Error(`no SDK call replays ${exchange.request.method} ${url.pathname}: add one`);
}

/** What a call gave, as the wire would show it: a 2xx body, or the error's status and entries. */
async function answered(call: Promise<unknown>, wrap: (value: unknown) => unknown = (value) => value): Promise<{ status: number; body: unknown }> {
  try {
    return { status: 200, body: wrap(await call) };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status ?? 0, body: { errors: error.errors } };
    throw error;
  }
}

/** Paths where `recorded` has a member that `got` lacks or holds with another type (arrays by their first entry). */
function unlike(recorded: unknown, got: unknown, path = '$'): string[] {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (kind(recorded) !== kind(got)) return [`${path}: ${kind(recorded)} recorded, ${kind(got)} from the mock`];
  if (Array.isArray(recorded) && Array.isArray(got)) {
    if (recorded.length === 0) return [];
    return got.length === 0 ? [`${path}: entries recorded, none from the mock`] : unlike(recorded[0], got[0], `${path}[0]`);
  }
  if (kind(recorded) !== 'object') return [];
  return Object.entries(recorded as Json).flatMap(([key, value]) =>
    key in (got as Json) ? unlike(value, (got as Json)[key], `${path}.${key}`) : [`${path}.${key}: missing from the mock`],
  );
}

const server = useMswServer();
const sdk = () => new MarketplaceClient({ baseUrl: BASE, vendor: 'marketplace', tokens: { orders: 'orders-token', products: 'products-token' }, maxRetries: 0 });

describe('fixtures/recorded-2026h2 through the SDK', () => {
  it('every file is a request/answer recording or a payload, and there are some of each', () => {
    expect(EXCHANGES.length + PAYLOADS.length).toBe(NAMES.length);
    expect(EXCHANGES.length).toBeGreaterThan(20);
    expect(PAYLOADS.length).toBeGreaterThan(8);
  });

  it.each(EXCHANGES)('%s: the recorded request, and the answer as the SDK gives it', async (name) => {
    const exchange = read(name) as unknown as Exchange;
    const { route, id, url } = routeOf(exchange);
    const seen: { url: URL; headers: Headers; body: unknown; form?: FormData }[] = [];
    server.use(
      http[exchange.request.method.toLowerCase() as 'get' | 'post'](`${BASE}${url.pathname}`, async ({ request }) => {
        const type = request.headers.get('content-type') ?? '';
        const form = type.startsWith('multipart/') ? await request.formData() : undefined;
        const text = form ? '' : await request.text();
        seen.push({ url: new URL(request.url), headers: request.headers, body: text ? JSON.parse(text) : undefined, ...(form ? { form } : {}) });
        return HttpResponse.json(exchange.response.body, { status: exchange.response.status });
      }),
    );
    const params = paramsOf(exchange);
    const got = await answered(route.call(sdk(), id, params, url), route.wrap);

    expect(got).toEqual({ status: exchange.response.status < 300 ? 200 : exchange.response.status, body: exchange.response.body });
    expect(seen).toHaveLength(1);
    const sent = seen[0];
    expect(sent?.url.search).toBe(url.search);
    expect(sent?.headers.get('accept')).toBe(exchange.request.headers.accept);
    if (route.fileField) expect(sent?.form?.get(route.fileField)).toBeInstanceOf(File);
    else expect(sent?.body).toEqual(params);
  });

  it.each(PAYLOADS)('%s: parsed or sent through the SDK as documented, no drift', async (name) => {
    const payload = read(name);
    const drift: unknown[] = [];
    const strict = { strict: true, onDrift: (report: unknown) => drift.push(report) } as const;
    if ('review_options' in payload) {
      // A return awaiting review that offers these options: each one, with a comment where required, is sent as given.
      const options = payload.review_options as ReviewOption[];
      const pending: Return = { return_code: 'R-111111-1111111', state: 'pending_merchant_review', review_options: options };
      expect(parseWebhook({ event_type: 'merchant_return_updated', event_time: '2026-09-01T10:00:00Z', return: pending }, strict)).toMatchObject({ return: pending });
      const bodies: unknown[] = [];
      server.use(
        http.post(`${BASE}/merchants/ecommerce/returns/R-111111-1111111/review`, async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json({ success: true });
        }),
      );
      const decisions = options.map((o) => ({ option: o.option as string, ...(o.comment_required ? { comment: 'Checked in the shop.' } : {}) }));
      for (const decision of decisions) await expect(sdk().returns.review(pending, decision)).resolves.toEqual({ success: true });
      expect(bodies).toEqual(decisions);
    } else if (payload.event_type === 'order_updated' && !('order' in payload)) {
      // A fragment of an order_updated event, as the page shows it: completed with a recorded order.
      const base = orderUpdatedBody();
      const body = { ...base, ...payload };
      expect(parseWebhook(body, strict)).toMatchObject(payload);
    } else if (typeof payload.event_type === 'string' && 'return' in payload) {
      expect(parseWebhook(payload, strict)).toEqual(payload);
    } else {
      throw new Error(`no replay for the payload ${name}: add one`);
    }
    expect(drift).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// The mock marketplace: the same situations, answered by the kit.
// ---------------------------------------------------------------------------

interface Kit {
  mock: MockMarketplace;
  client: MarketplaceClient;
  /** Bodies the kit delivered to the registered webhook URLs. */
  delivered: Json[];
  accepted: (overrides?: Record<string, unknown>) => Promise<string>;
  fbs: () => string;
}
const mocks: MockMarketplace[] = [];
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.close();
});
function kit(): Kit {
  const delivered: Json[] = [];
  const mock = createMockMarketplace({
    webhookIntervalMs: 1,
    webhookFetch: async (_, init) => {
      delivered.push(JSON.parse(String(init?.body)) as Json);
      return new Response('ok');
    },
  });
  mocks.push(mock);
  const client = new MarketplaceClient({ baseUrl: mock.baseUrl, vendor: mock.vendor, fetch: mock.fetch, tokens: mock.tokens, maxRetries: 0 });
  const accepted = async (overrides: Record<string, unknown> = {}) => {
    const { code } = mock.orders.create(overrides);
    const open = await client.orders.get(code);
    await client.orders.accept(code, { pickup_location: open.accept_options?.pickup_location?.[0]?.id as string, pickup_window: 1 });
    return code;
  };
  const fbs = () => {
    const { code } = mock.orders.create({ fulfilled_by_marketplace: true });
    mock.orders.autoAccept(code);
    return code;
  };
  return { mock, client, delivered, accepted, fbs };
}
const raw = async (answer: Promise<Response>) => {
  const response = await answer;
  return { status: response.status, body: (await response.json()) as unknown };
};
const creditForm = (file?: Blob) => {
  const form = new FormData();
  if (file) form.append('credit_invoice_file', file, 'credit_invoice.zip');
  return form;
};
const returnFlow = async ({ mock, client, delivered }: Kit) => {
  mock.returnWebhooks.register('https://shop.example/hooks/returns');
  const { return_code } = mock.returns.create(mock.orders.create({ line_items: [{ ean: '1234567890123' }] }).code, {
    reason: 'wrong_product',
    user_comment: 'Ordered black, received white.',
    user_photos: ['https://api.example.gr/assets/returns/photo_1.jpg'],
  });
  await client.returns.review(return_code, { option: 'approve' });
  mock.returns.setTracking(return_code, ['ACS1234567890']);
  mock.returns.changeCourier(return_code, 'Speedex');
  mock.returns.markReturned(return_code);
  await mock.returnWebhooks.idle();
  return delivered;
};
const pendingOptions = async ({ mock, client }: Kit, reason: string) =>
  ({ review_options: (await client.returns.get(mock.returns.create(mock.orders.create({ courier: 'ACS' }).code, { reason }).return_code)).review_options }) as Json;

/** For every file: what the kit answers in the same situation, or why the kit does not serve it. */
const ON_THE_MOCK: Record<string, ((k: Kit) => Promise<{ status: number; body: unknown } | Json>) | string> = {
  returns_show_demo_return: (k) => answered(k.client.returns.get('DEMO-RETURN'), (r) => ({ return: r })),
  returns_show_doc_example: async (k) => {
    const order = k.mock.orders.create({ line_items: [{ ean: '1234567890123' }] });
    k.mock.returns.create(order.code, { return_code: 'R-111111-1111111', reason: 'damaged_product', user_comment: 'Why', user_photos: ['https://a.cdn.example.gr/1.jpg'] });
    await k.client.returns.review('R-111111-1111111', { option: 'approve' });
    k.mock.returns.setTracking('R-111111-1111111', ['DEMO-RET-TRACK-1', 'DEMO-RET-TRACK-2']);
    return answered(k.client.returns.get('R-111111-1111111'), (r) => ({ return: r }));
  },
  returns_show_not_found: (k) => answered(k.client.returns.get('UNKNOWN-RETURN')),
  returns_review_approve: (k) => {
    k.mock.returns.create(k.mock.orders.create().code, { return_code: 'R-111111-1111112' });
    return answered(k.client.returns.review('R-111111-1111112', { option: 'approve' }));
  },
  returns_review_reject_not_faulty: (k) => {
    k.mock.returns.create(k.mock.orders.create().code, { return_code: 'R-111111-1111111', reason: 'faulty' });
    return answered(k.client.returns.review('R-111111-1111111', { option: 'not_faulty', comment: 'The product works within its stated specifications.' }));
  },
  returns_review_error_option: (k) => {
    k.mock.returns.create(k.mock.orders.create().code, { return_code: 'R-111111-1111111', reason: 'withdrawal' });
    return answered(k.client.returns.review('R-111111-1111111', { option: 'not_faulty', comment: 'x' }));
  },
  returns_review_options_faulty: (k) => pendingOptions(k, 'faulty'),
  returns_review_options_missing_part: (k) => pendingOptions(k, 'missing_part'),
  returns_review_options_withdrawal: (k) => pendingOptions(k, 'withdrawal'),
  returns_webhook_created: async (k) => (await returnFlow(k))[0] as Json,
  returns_webhook_updated_shipment_info: async (k) => (await returnFlow(k))[1] as Json,
  returns_webhook_updated_tracking_ids: async (k) => (await returnFlow(k))[2] as Json,
  returns_webhook_updated_courier_reassigned: async (k) => (await returnFlow(k))[3] as Json,
  returns_webhook_updated_state: async (k) => (await returnFlow(k))[4] as Json,
  merchants_ecommerce_orders_show_action_options: async (k) => answered(k.client.orders.get(await k.accepted(), { actionOptions: true }), (o) => ({ order: o })),
  merchants_ecommerce_orders_reschedule_pickup: async (k) => {
    const code = await k.accepted();
    const date = (await k.client.orders.get(code, { actionOptions: true })).reschedule_options?.[0]?.date as string;
    return answered(k.client.orders.reschedulePickup(code, { reschedule_date: date }));
  },
  orders_reschedule_pickup_error_date: async (k) => answered(k.client.orders.reschedulePickup(await k.accepted(), { reschedule_date: '2000-01-03' })),
  orders_reschedule_pickup_error_not_eligible: (k) => answered(k.client.orders.reschedulePickup(k.fbs(), { reschedule_date: '2030-01-02' })),
  merchants_ecommerce_orders_relocate_pickup: async (k) => {
    const code = await k.accepted();
    const place = (await k.client.orders.get(code, { actionOptions: true })).relocate_options?.[0]?.id as string;
    return answered(k.client.orders.relocatePickup(code, { pickup_location: place }));
  },
  orders_relocate_pickup_error_location: async (k) => answered(k.client.orders.relocatePickup(await k.accepted(), { pickup_location: 'not-offered' })),
  orders_relocate_pickup_error_not_eligible: (k) => answered(k.client.orders.relocatePickup(k.fbs(), { pickup_location: 'LOC-2' })),
  orders_request_voucher_success: async (k) => {
    const code = await k.accepted();
    k.mock.orders.markPreorder(code);
    return answered(k.client.orders.requestVoucher(code));
  },
  orders_request_voucher_error_not_eligible: async (k) => answered(k.client.orders.requestVoucher(await k.accepted())),
  orders_credit_invoices_success: async (k) => {
    const code = await k.accepted();
    k.mock.orders.cancel(code);
    return answered(k.client.orders.uploadCreditInvoice(code, PDF));
  },
  orders_credit_invoices_error_not_accepted: (k) => answered(k.client.orders.uploadCreditInvoice(k.mock.orders.create().code, PDF)),
  // The SDK refuses these two before sending (no file; a ZIP): the kit is asked directly.
  orders_credit_invoices_error_missing_file: async (k) =>
    raw(k.mock.fetch(`${k.mock.baseUrl}/merchants/ecommerce/orders/${await k.accepted()}/credit_invoices`, { method: 'POST', headers: merchantHeaders(), body: creditForm() })),
  orders_credit_invoices_error_file_rejected: async (k) =>
    raw(
      k.mock.fetch(`${k.mock.baseUrl}/merchants/ecommerce/orders/${await k.accepted()}/credit_invoices`, {
        method: 'POST',
        headers: merchantHeaders(),
        body: creditForm(new Blob([new Uint8Array([0x50, 0x4b, 3, 4])], { type: 'application/zip' })),
      }),
    ),
  orders_webhook_is_ready_for_dispatch_fragment: async (k) => {
    k.mock.webhooks.register('https://shop.example/hooks/orders');
    const code = await k.accepted({ courier: 'Marketplace Last Mile' });
    await k.client.orders.setAsReady(code);
    await k.mock.webhooks.idle();
    return k.delivered.at(-1) as Json;
  },
  merchants_products_batch_with_id: (k) => {
    const data = (paramsOf(read('merchants_products_batch_with_id') as unknown as Exchange) as { data: never }).data;
    return answered(k.client.products.batchUpdate(data));
  },
  merchants_products_batch_status: async (k) => {
    k.mock.products.setBatchDelay(0);
    const data = (paramsOf(read('merchants_products_batch_with_id') as unknown as Exchange) as { data: { variations?: unknown }[] }).data;
    const { id } = await k.client.products.batchUpdate(data.filter((update) => update.variations) as never);
    return answered(k.client.products.waitForBatch(id as string, { intervalMs: 100 }));
  },
  products_batch_status_not_found: (k) => answered(k.client.products.batchStatus('unknown-batch-id')),
};

describe('fixtures/recorded-2026h2 through the mock marketplace', () => {
  it('every file has its situation on the mock (or says why not)', () => {
    expect(Object.keys(ON_THE_MOCK).sort()).toEqual(NAMES);
  });

  it.each(NAMES.filter((name) => typeof ON_THE_MOCK[name] === 'function'))('%s: the kit answers as recorded', async (name) => {
    const file = read(name);
    const scenario = ON_THE_MOCK[name] as (k: Kit) => Promise<{ status: number; body: unknown } | Json>;
    const got = await scenario(kit());
    if (isExchange(file)) {
      const answer = got as { status: number; body: unknown };
      if (file.response.status >= 300) expect(answer).toEqual({ status: file.response.status, body: file.response.body });
      else expect([answer.status, unlike(file.response.body, answer.body)]).toEqual([200, []]);
      return;
    }
    expect(unlike(file, got)).toEqual([]);
    // An update names the members that changed, as the documented payload of its kind does.
    if ('changes' in file) expect(Object.keys((got as { changes?: Json }).changes ?? {}).sort()).toEqual(Object.keys(file.changes as Json).sort());
    if ('review_options' in file) expect(got).toEqual(file);
  });
});
