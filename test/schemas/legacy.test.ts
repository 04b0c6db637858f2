import { describe, expect, it } from 'vitest';
import {
  LegacyAuthenticateParams,
  LegacyAuthenticateResult,
  LegacyBookmarkParams,
  LegacyEnvelope,
  LegacyKeyphrase,
  LegacyListParams,
  LegacyListResult,
  LegacySearchResult,
  LegacySkuResult,
  LegacySuccessResult,
} from '../../src/schemas/legacy.js';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const pathsOf = (schema: { safeParse: (v: unknown) => { error?: { issues: { path: PropertyKey[] }[] } } }, value: unknown) =>
  schema.safeParse(value).error?.issues.map(({ path }) => path) ?? [];

describe('legacy v2 envelope', () => {
  it('parses the error envelope of a short search keyphrase', () => {
    const body = { type: 'search', result: null, error: { code: 'invalid', number: 221, text: 'Invalid Search' } };
    const envelope = LegacyEnvelope.parse(clone(body));
    expect(envelope).toStrictEqual(body);
    expect(envelope.error?.code).toBe('invalid');
  });

  it('keeps error codes the spec does not list, and an envelope without result', () => {
    const body = { type: 'authenticate', error: { code: 'rate_limited', number: 999, text: 'Slow down' } };
    expect(LegacyEnvelope.parse(clone(body))).toStrictEqual(body);
  });

  it('reads a full authenticate result', () => {
    const body = {
      type: 'authenticate',
      result: {
        access_token: 'tok-full',
        access_token_expiry: '2018-02-01T00:00:00+02:00',
        access_token_type: 'full',
        user: { id: 334941, username: 'maria' },
      },
      error: null,
    };
    const envelope = LegacyEnvelope.parse(clone(body));
    expect(envelope.error).toBeNull();
    const result = LegacyAuthenticateResult.parse(envelope.result);
    expect(result).toStrictEqual(body.result);
    expect(LegacyAuthenticateResult.parse({ access_token: 'tok-basic', access_token_type: 'basic', access_token_expiry: 1517436000 }).user).toBeUndefined();
  });

  it('refuses a result without the access token, and broken envelopes', () => {
    expect(pathsOf(LegacyAuthenticateResult, { access_token_type: 'basic' })).toEqual([['access_token']]);
    expect(pathsOf(LegacyEnvelope, { type: 'x', error: 'boom' })).toEqual([['error']]);
    expect(pathsOf(LegacyEnvelope, 'not an object')).toEqual([[]]);
  });

  it('keeps the barely specified results as sent', () => {
    const list = {
      selected_filters: [{ id: 12 }],
      skus: [{ id: 1, name: 'Phone', anything: { nested: true } }],
      manufacturers: [{ id: 28 }],
      filter_groups: [],
      paginator: { total_results: 40, page: 1, results_per_page: 20, total_pages: 2 },
    };
    expect(LegacyListResult.parse(clone(list))).toStrictEqual(list);
    const search = { type: 'multiple_results', correction: 'iphone', proposer: { type: 'category_filter', id: 40 } };
    expect(LegacySearchResult.parse(clone(search))).toStrictEqual(search);
    expect(LegacySkuResult.parse({ sku: { id: 1, pn: 'X' } })).toEqual({ sku: { id: 1, pn: 'X' } });
    expect(LegacySuccessResult.parse({ success: true })).toEqual({ success: true });
    expect(pathsOf(LegacyListResult, { skus: 'none' })).toEqual([['skus']]);
  });
});

describe('legacy v2 requests', () => {
  it('authenticate takes the API key, and username with password for a full token', () => {
    expect(LegacyAuthenticateParams.parse({ api_key: 'k' })).toEqual({ api_key: 'k' });
    expect(LegacyAuthenticateParams.parse({ api_key: 'k', username: 'u', password: 'p' })).toEqual({
      api_key: 'k',
      username: 'u',
      password: 'p',
    });
    expect(pathsOf(LegacyAuthenticateParams, { api_key: 'k', username: 'u' })).toEqual([['password']]);
    expect(pathsOf(LegacyAuthenticateParams, {})).toEqual([['api_key']]);
  });

  it('a keyphrase needs 2 characters', () => {
    expect(LegacyKeyphrase.safeParse('ip').success).toBe(true);
    expect(LegacyKeyphrase.safeParse('i').success).toBe(false);
    expect(pathsOf(LegacyListParams, { keyphrase: 'i', filter_id: [12, 0] })).toEqual([['keyphrase'], ['filter_id', 1]]);
    expect(LegacyListParams.parse({ filter_id: [12, 34], page: 2 })).toEqual({ filter_id: [12, 34], page: 2 });
  });

  it('bookmarks name a sku, product or book', () => {
    expect(LegacyBookmarkParams.parse({ type: 'sku', id: 3783654 })).toEqual({ type: 'sku', id: 3783654 });
    expect(pathsOf(LegacyBookmarkParams, { type: 'shop', id: 1 })).toEqual([['type']]);
  });
});
