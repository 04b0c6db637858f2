/**
 * client.returns: every returns recording and documented answer replayed through the SDK,
 * the orders token, the checks before sending, the error helper, and review never repeated.
 */
import { readFileSync } from 'node:fs';
import {
  InternalServerError,
  isReturnNotReviewable,
  MarketplaceClient,
  NotFoundError,
  RequestValidationError,
  ResponseValidationError,
  type Return,
  type ReviewOption,
  UnprocessableEntityError,
} from 'emporio';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, useMswServer } from '../helpers/server.js';
import { capture, rejection } from './catalog/helpers.js';

const server = useMswServer();
const RETURNS = `${BASE}/merchants/ecommerce/returns`;
const ORDERS_TOKEN = 'tok_SECRET_orders_returns_1';

interface Recording {
  request: { method: string; url: string; params: Record<string, string> | null };
  response: { status: number; body: Record<string, unknown> };
}
const fixture = <T = Recording>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/recorded-2026h2/${name}.json`, import.meta.url), 'utf8')) as T;
const client = () =>
  new MarketplaceClient({ baseUrl: BASE, vendor: 'marketplace', tokens: { orders: ORDERS_TOKEN, products: 'products-token' } });
/** The recording's request params (`:option` ...) as the review's parameters. */
const paramsOf = (rec: Recording) =>
  Object.fromEntries(Object.entries(rec.request.params ?? {}).map(([key, value]) => [key.slice(1), value])) as { option: string; comment?: string };
/** A return awaiting review that offers `options` (the documented option lists). */
const pending = (options: string): Return => ({
  return_code: 'R-111111-1111111',
  state: 'pending_merchant_review',
  review_options: fixture<{ review_options: ReviewOption[] }>(`returns_review_options_${options}`).review_options,
});

describe('returns.get against the recordings', () => {
  it.each([['returns_show_demo_return'], ['returns_show_doc_example']])('%s: the return as sent, with the orders token and version 3.0', async (name) => {
    const rec = fixture(name);
    const code = new URL(rec.request.url).pathname.split('/').pop() as string;
    const seen = capture(server, 'get', `${RETURNS}/${code}`, () => HttpResponse.json(rec.response.body));
    const got = await client().returns.get(code);
    expect(got).toEqual(rec.response.body.return);
    expect(got.created_at).toMatch(/Z$/);
    expect(got.returning_address?.country_code).toBe('GR');
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${ORDERS_TOKEN}`);
    expect(seen[0]?.headers.get('accept')).toBe('application/vnd.marketplace+json; version=3.0');
  });

  it('returns_show_not_found: a NotFoundError with the service’s message', async () => {
    const rec = fixture('returns_show_not_found');
    capture(server, 'get', `${RETURNS}/UNKNOWN-RETURN`, () => HttpResponse.json(rec.response.body, { status: rec.response.status }));
    const error = await rejection(client().returns.get('UNKNOWN-RETURN'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'not_found', message: expect.stringContaining('Return not found') });
    expect(isReturnNotReviewable(error)).toBe(false);
  });

  it('tolerant: a member of another type passes as sent; a missing return_code is refused', async () => {
    const body = fixture('returns_show_demo_return').response.body as { return: Record<string, unknown> };
    const drifted = { ...body.return, courier: 7, ean_list: ['new member'], return_line_items: [{ returning_quantity: '1' }] };
    capture(server, 'get', `${RETURNS}/DEMO-RETURN`, () => HttpResponse.json({ return: drifted }));
    await expect(client().returns.get('DEMO-RETURN')).resolves.toEqual(drifted);

    const { return_code: _, ...nameless } = body.return;
    capture(server, 'get', `${RETURNS}/R-1`, () => HttpResponse.json({ return: nameless }));
    await expect(client().returns.get('R-1')).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('a code that is not a path segment is refused before sending', async () => {
    const seen = capture(server, 'get', `${RETURNS}/*`, () => HttpResponse.json({}));
    await expect(client().returns.get('R-1/../x')).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client().returns.review('', { option: 'approve' })).rejects.toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(0);
  });
});

describe('returns.review against the recordings', () => {
  it.each([['returns_review_approve'], ['returns_review_reject_not_faulty']])('%s: the documented body, { success: true }', async (name) => {
    const rec = fixture(name);
    const code = new URL(rec.request.url).pathname.split('/').at(-2) as string;
    const seen = capture(server, 'post', `${RETURNS}/${code}/review`, () => HttpResponse.json(rec.response.body));
    await expect(client().returns.review(code, paramsOf(rec))).resolves.toEqual({ success: true });
    expect(seen[0]?.body).toEqual(paramsOf(rec));
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${ORDERS_TOKEN}`);
    expect(seen[0]?.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('returns_review_error_option: the 422 with its code and message', async () => {
    const rec = fixture('returns_review_error_option');
    capture(server, 'post', `${RETURNS}/R-111111-1111111/review`, () => HttpResponse.json(rec.response.body, { status: 422 }));
    const error = await rejection(client().returns.review('R-111111-1111111', { option: 'approve' }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ code: 'option', message: expect.stringContaining('Invalid or missing option.') });
    expect(isReturnNotReviewable(error)).toBe(false);
  });

  it('isReturnNotReviewable: the 422 return_status answer', async () => {
    capture(server, 'post', `${RETURNS}/R-2/review`, () =>
      HttpResponse.json({ errors: [{ code: 'return_status', messages: ['Return is not pending merchant review'] }] }, { status: 422 }),
    );
    const error = await rejection(client().returns.review('R-2', { option: 'approve' }));
    expect(isReturnNotReviewable(error)).toBe(true);
    expect(isReturnNotReviewable(new Error('x'))).toBe(false);
  });

  it('an empty 2xx reads as { success: true }, as for order actions: the decision was taken, a retry would be refused', async () => {
    const seen = capture(server, 'post', `${RETURNS}/R-6/review`, () => new HttpResponse(null, { status: 204 }));
    await expect(client().returns.review('R-6', { option: 'approve' })).resolves.toEqual({ success: true });
    expect(seen).toHaveLength(1);
  });

  it('a review is never repeated: a 503 is thrown as it is, after one request', async () => {
    const seen = capture(server, 'post', `${RETURNS}/R-3/review`, () => HttpResponse.json({}, { status: 503 }));
    await expect(client().returns.review('R-3', { option: 'approve' })).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });
});

describe('returns.review checks before sending', () => {
  const refused = async (call: Promise<unknown>, path: string, message: RegExp) => {
    const error = await rejection(call);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([expect.objectContaining({ path: [path], message: expect.stringMatching(message) })]);
  };

  it.each([
    ['faulty', { option: 'send_missing_part' }, 'option', /not among the return's review_options \(approve, contact_manufacturer, /],
    ['withdrawal', { option: 'not_faulty', comment: 'works' }, 'option', /not among/],
    ['faulty', { option: 'not_faulty' }, 'comment', /is required for "not_faulty"/],
    ['faulty', { option: 'contact_manufacturer', comment: '   ' }, 'comment', /is required/],
    ['missing_part', { option: 'part_not_included' }, 'comment', /is required/],
    ['missing_part', { option: 'approve', comment: 'x'.repeat(1001) }, 'comment', /at most 1000 characters/],
  ])('given a return offering the %s options, %j is refused (%s), nothing sent', async (options, params, path, message) => {
    const seen = capture(server, 'post', `${RETURNS}/*`, () => HttpResponse.json({ success: true }));
    await refused(client().returns.review(pending(options), params), path, message);
    expect(seen).toHaveLength(0);
  });

  it('a comment over 1000 characters is refused with a code too; 1000 characters (not UTF-16 units) pass', async () => {
    const seen = capture(server, 'post', `${RETURNS}/R-4/review`, () => HttpResponse.json({ success: true }));
    await refused(client().returns.review('R-4', { option: 'not_faulty', comment: 'ά'.repeat(1001) }), 'comment', /at most 1000/);
    expect(seen).toHaveLength(0);
    await client().returns.review('R-4', { option: 'not_faulty', comment: '😀'.repeat(1000) });
    expect(seen).toHaveLength(1);
  });

  it('misspelt keys, a missing option and a proposed_part_url that is no URL are refused', async () => {
    const seen = capture(server, 'post', `${RETURNS}/*`, () => HttpResponse.json({ success: true }));
    const returns = client().returns;
    const misspelt = await rejection(returns.review('R-5', { option: 'approve', comments: 'x' } as never));
    expect((misspelt as RequestValidationError).issues).toEqual([expect.objectContaining({ message: 'unknown field: comments' })]);
    await expect(returns.review('R-5', {} as never)).rejects.toBeInstanceOf(RequestValidationError);
    await refused(returns.review('R-5', { option: 'part_not_included', comment: 'c', proposed_part_url: 'shop/part' }), 'proposed_part_url', /URL/);
    await expect(returns.review({ state: 'returning' } as never, { option: 'approve' })).rejects.toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(0);
  });

  it('offered options pass and are sent as given, to the return’s own code', async () => {
    const seen = capture(server, 'post', `${RETURNS}/R-111111-1111111/review`, () => HttpResponse.json({ success: true }));
    const returns = client().returns;
    await returns.review(pending('faulty'), { option: 'resolved_via_customer_communication' });
    await returns.review(pending('missing_part'), { option: 'part_not_included', comment: 'In the box', proposed_part_url: 'https://shop.example/part' });
    await returns.review(pending('withdrawal'), { option: 'out_of_policy_withdrawal' });
    // A return without review_options (not awaiting review) is not checked: the service answers.
    await returns.review({ return_code: 'R-111111-1111111', state: 'returning' }, { option: 'approve' });
    expect(seen.map((s) => s.body)).toEqual([
      { option: 'resolved_via_customer_communication' },
      { option: 'part_not_included', comment: 'In the box', proposed_part_url: 'https://shop.example/part' },
      { option: 'out_of_policy_withdrawal' },
      { option: 'approve' },
    ]);
  });
});
