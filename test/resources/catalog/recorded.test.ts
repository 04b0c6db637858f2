/**
 * Issue 8: every recorded answer in test/fixtures/recorded-catalog/ is replayed through its
 * SDK method. The mock answers only the recorded path and method; the test asserts that the
 * query and body were sent as recorded and that the result holds the recorded data intact.
 */
import type { MarketplaceClient, Page } from 'emporio';
import { describe, expect, it } from 'vitest';
import { makeClient, useMswServer } from '../../helpers/server.js';
import { expectedRequest, queryOf, recording, recordingNames, replay } from './helpers.js';

const server = useMswServer();

type Body = Record<string, unknown>;
const pageOf = (page: Page<unknown, unknown>) => ({ items: page.items, meta: page.meta });
const listOf = (key: string) => (body: Body) => ({ items: body[key], meta: body.meta });

/** file → the SDK call that reaches it, and what of the recorded body the call resolves to. */
const cases: Record<string, { call: (c: MarketplaceClient) => Promise<unknown>; expected: (body: Body) => unknown }> = {
  autocomplete: { call: (c) => c.catalog.autocomplete('iph'), expected: (b) => b.autocomplete },
  book_categories: { call: (c) => c.catalog.bookCategories.list(), expected: (b) => b.categories },
  book_categories_books: {
    call: async (c) => pageOf(await c.catalog.bookCategories.books(1857)),
    expected: listOf('books'),
  },
  book_categories_filters: { call: (c) => c.catalog.bookCategories.filters(1857), expected: (b) => b },
  book_categories_show: { call: (c) => c.catalog.bookCategories.get(1857), expected: (b) => b.category },
  category_favorites: {
    call: async (c) => pageOf(await c.catalog.categories.favorites(40)),
    expected: listOf('favorites'),
  },
  category_manufacturers: {
    call: async (c) =>
      pageOf(await c.catalog.categories.manufacturers(25, { order_by: 'popularity', order_dir: 'desc', per: 2 })),
    expected: listOf('manufacturers'),
  },
  publisher: { call: (c) => c.catalog.publishers.get(78), expected: (b) => b.publisher },
  publisher_books: { call: async (c) => pageOf(await c.catalog.publishers.books(78)), expected: listOf('books') },
  sku_review_flag_create: {
    call: (c) => c.catalog.skus.flagReview(9783213, 240896, { reason: 'spam' }),
    expected: (b) => b,
  },
  sku_review_vote_create: {
    call: (c) => c.catalog.skus.voteReview(3982592, 21943, { helpful: true }),
    expected: (b) => b.sku_review_vote,
  },
  sku_review_vote_create_embed_sku_review: {
    call: (c) => c.catalog.skus.voteReview(3982592, 18689, { helpful: false }, { embed: 'sku_review' }),
    expected: (b) => b.sku_review_vote,
  },
  sku_reviews_with_aggregation: {
    call: async (c) =>
      pageOf(await c.catalog.skus.reviews(8864706, { include_meta: 'sku_reviews_aggregation', per: 3 })),
    expected: listOf('reviews'),
  },
  sku_reviews_with_rating_breakdown: {
    call: async (c) => pageOf(await c.catalog.skus.reviews(3982592, { include_meta: ['sku_rating_breakdown'], per: 3 })),
    expected: listOf('reviews'),
  },
  skus_product_cards: {
    call: async (c) => pageOf(await c.catalog.skus.productCards(3783654)),
    expected: listOf('product_cards'),
  },
  skus_products: { call: async (c) => pageOf(await c.catalog.skus.products(3783654)), expected: listOf('products') },
  skus_reviews: { call: async (c) => pageOf(await c.catalog.skus.reviews(3783654, { per: 3 })), expected: listOf('reviews') },
  skus_reviews_create: {
    call: (c) =>
      c.catalog.skus.createReview(3783654, { rating: 5, answer_ids: [561, 3944], review: 'Δοκιμαστικό SKU review κείμενο' }),
    expected: (b) => b.sku_review,
  },
  skus_reviews_destroy: { call: (c) => c.catalog.skus.deleteReview(3783654, 249471), expected: () => undefined },
  skus_reviews_edit: { call: (c) => c.catalog.skus.editReviewForm(3783654, 249471), expected: (b) => b.review_form },
  skus_reviews_new: { call: (c) => c.catalog.skus.newReviewForm(3783654), expected: (b) => b.review_form },
  skus_reviews_update: {
    call: (c) => c.catalog.skus.updateReview(3783654, 249474, { rating: 4 }),
    expected: (b) => b.sku_review,
  },
  skus_show: { call: (c) => c.catalog.skus.get(3443837), expected: (b) => b.sku },
  skus_similar: { call: async (c) => pageOf(await c.catalog.skus.similar(3034682)), expected: listOf('skus') },
};

describe('recorded catalog answers (issue 8)', () => {
  it('has a replay case for every recording, and no case without one', () => {
    expect(Object.keys(cases).sort()).toEqual(recordingNames());
  });

  for (const name of recordingNames()) {
    it(`replays ${name} through its SDK method`, async () => {
      const rec = recording(name);
      const seen = replay(server, rec);
      const testCase = cases[name];
      if (!testCase) throw new Error(`no replay case for ${name}`);

      const result = await testCase.call(makeClient({ maxRetries: 0, rateLimit: false }));

      const expected = expectedRequest(rec);
      expect(seen).toHaveLength(1);
      const request = seen[0]!;
      expect(request.method).toBe(expected.method);
      expect(request.url.pathname).toBe(expected.path);
      expect(queryOf(request.url)).toEqual(expected.query);
      expect(request.body).toEqual(expected.body);
      expect(request.headers.get('accept')).toBe('application/vnd.marketplace+json; version=3.2');
      expect(result).toEqual(testCase.expected((rec.response.body ?? {}) as Body));
    });
  }
});
