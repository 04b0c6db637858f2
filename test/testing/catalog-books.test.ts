/**
 * The kit's book endpoints (book categories, publishers, books, authors), the SKU review forms
 * and writes, and product cards, driven with plain fetch through msw: statuses, shapes as
 * recorded, Link paging, error bodies and the token rules.
 */
import { createMockMarketplace, type MockMarketplace } from 'emporio/testing';
import { mswHandlers } from 'emporio/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const BASE = 'https://api.marketplace.test';
const headers = (token = 'test-catalog-token', extra: Record<string, string> = {}) => ({
  Accept: 'application/vnd.marketplace+json; version=3.2',
  Authorization: `Bearer ${token}`,
  ...extra,
});
const userJson = () => headers('test-account-token', { 'Content-Type': 'application/json; charset=utf-8' });

let mock: MockMarketplace;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  mock = createMockMarketplace();
  server.resetHandlers(...mswHandlers(mock));
});
afterEach(() => mock.close());

async function getJson(path: string, token?: string) {
  const answer = await fetch(`${BASE}${path}`, { headers: headers(token) });
  return { status: answer.status, headers: answer.headers, body: await answer.json() };
}

function parseLink(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (match) links[match[2] as string] = match[1] as string;
  }
  return links;
}

const BOOK_KEYS = [
  'favorited',
  'first_product_shop_info',
  'id',
  'images',
  'main_author',
  'main_author_id',
  'name',
  'price_max',
  'price_min',
  'reviewable',
  'reviews_count',
  'reviewscore',
  'shop_count',
  'web_url',
];

describe('book categories', () => {
  it('lists the top level, gets one, and lists subcategories with meta.ancestor', async () => {
    const list = await getJson('/book_categories');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      categories: [
        { id: 1857, name: 'Philosophy' },
        { id: 2400, name: 'Literature' },
        { id: 2685, name: 'History. Geography' },
      ],
    });
    expect(await getJson('/book_categories/1857')).toMatchObject({ status: 200, body: { category: { id: 1857, name: 'Philosophy' } } });
    const filters = await getJson('/book_categories/1857/filters');
    expect(filters.body).toEqual({
      categories: [
        { id: 805, name: 'Knowledge' },
        { id: 978, name: 'Ethics' },
        { id: 1599, name: 'Logic' },
      ],
      meta: { ancestor: { id: 1857, name: 'Philosophy' } },
    });
    expect((await getJson('/book_categories/805/filters')).body).toEqual({ categories: [], meta: { ancestor: { id: 805, name: 'Knowledge' } } });
  });

  it('answers 404 RecordNotFound for an unknown category', async () => {
    for (const path of ['/book_categories/4242', '/book_categories/4242/books', '/book_categories/nope/filters']) {
      const answer = await getJson(path);
      expect(answer.status).toBe(404);
      expect(answer.body.errors[0].code).toBe('RecordNotFound');
    }
  });

  it('searches categories by term with match_count, and refuses a term under 2 characters', async () => {
    const found = await getJson('/book_categories/filters?q=ethics');
    expect(found.status).toBe(200);
    expect(found.body.categories).toEqual([{ id: 978, name: 'Ethics', match_count: 10 }]);
    expect(found.body.meta.pagination).toEqual({ total_results: 1, total_pages: 1, page: 1, per: 25 });
    const byAuthor = await getJson(`/book_categories/filters?q=${encodeURIComponent('Maria Papadaki')}`);
    expect(byAuthor.body.categories.reduce((n: number, c: { match_count: number }) => n + c.match_count, 0)).toBe(
      mock.catalog.books.books().filter((b) => b.main_author === 'Maria Papadaki').length,
    );
    for (const q of ['e', '%20e%20', '']) {
      const short = await getJson(`/book_categories/filters?q=${q}`);
      expect(short.status).toBe(422);
      expect(short.body).toEqual({ errors: [{ code: 'InvalidSearch', messages: ['The search query must be at least 2 characters long'] }] });
    }
  });

  it("pages a category's 30 books (its subcategories') over 2 pages by the Link header", async () => {
    const first = await fetch(`${BASE}/book_categories/1857/books`, { headers: headers() });
    const body = await first.json();
    expect(body.books).toHaveLength(25);
    expect(Object.keys(body.books[0]).sort()).toEqual(BOOK_KEYS);
    expect(body.meta).toEqual({
      ordered_by: 'popularity',
      order_by_methods: { pricevat: 'Price', popularity: 'Popularity', created_on: 'Publication date' },
      pagination: { total_results: 30, total_pages: 2, page: 1, per: 25 },
    });
    const links = parseLink(first.headers.get('link'));
    expect(links).toEqual({ next: `${BASE}/book_categories/1857/books?page=2&per=25`, last: `${BASE}/book_categories/1857/books?page=2&per=25` });
    const second = await fetch(links.next as string, { headers: headers() });
    expect(second.headers.get('link')).toBeNull();
    const rest = (await second.json()).books as { id: number; shop_count: number }[];
    expect(rest).toHaveLength(5);
    const all = [...body.books, ...rest] as { id: number; shop_count: number }[];
    expect(new Set(all.map((b) => b.id))).toEqual(new Set(mock.catalog.books.books(1857).map((b) => b.id)));
    const counts = all.map((b) => b.shop_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('orders by price, and refuses an unknown order_by or a bad page', async () => {
    const cheap = await getJson('/book_categories/2400/books?order_by=pricevat&order_dir=asc');
    const prices = cheap.body.books.map((b: { price_min: number }) => b.price_min);
    expect(prices).toHaveLength(10);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(cheap.body.meta.ordered_by).toBe('pricevat');
    expect((await getJson('/book_categories/2400/books?order_by=rank')).status).toBe(400);
    const bad = await getJson('/book_categories/2400/books?page=0');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe('InvalidParameter');
  });
});

describe('publishers, books and authors', () => {
  it('gets a publisher and pages its books', async () => {
    const { body } = await getJson('/publisher/78');
    expect(Object.keys(body.publisher).sort()).toEqual(['address', 'email', 'fax', 'id', 'name', 'phone', 'website']);
    expect(body.publisher).toMatchObject({ id: 78, name: 'Athens Press' });
    const first = await fetch(`${BASE}/publisher/78/books?per=10`, { headers: headers() });
    const page = await first.json();
    expect(page.meta).toEqual({ pagination: { total_results: 15, total_pages: 2, page: 1, per: 10 } });
    expect(parseLink(first.headers.get('link')).next).toBe(`${BASE}/publisher/78/books?per=10&page=2`);
    expect((await getJson('/publisher/1')).status).toBe(404);
  });

  it('gets a book, its details, and the other books of its author', async () => {
    const id = mock.catalog.books.ids.book;
    const { body, headers: answered } = await getJson(`/books/${id}`);
    expect(Object.keys(body.book).sort()).toEqual(BOOK_KEYS);
    expect(body.book).toMatchObject({ id, main_author_id: 501, main_author: 'Maria Papadaki', name: 'Knowledge: Essays, vol. 1' });
    const etag = answered.get('etag') as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    const cached = await fetch(`${BASE}/books/${id}`, { headers: headers(undefined, { 'If-None-Match': etag }) });
    expect(cached.status).toBe(304);

    const details = (await getJson(`/books/${id}/details`)).body.book_details;
    expect(Object.keys(details).sort()).toEqual(['ages', 'cover', 'description', 'isbn', 'pages', 'pubyear', 'series', 'shape', 'volume']);
    expect(details.series).toBe('Knowledge');

    const similar = (await getJson(`/books/${id}/similar_by_author`)).body.books as { id: number; main_author_id: number }[];
    expect(similar.length).toBe(8);
    expect(similar.every((b) => b.main_author_id === 501 && b.id !== id)).toBe(true);
    expect((await getJson('/books/1/details')).status).toBe(404);
  });

  it('searches books by title or author with the ordering meta, 422 under 2 characters', async () => {
    const found = await getJson('/books/search?q=dialogues&order_by=created_on');
    expect(found.status).toBe(200);
    expect(found.body.books.length).toBe(mock.catalog.books.books().filter((b) => b.name.includes('Dialogues')).length);
    expect(found.body.meta.ordered_by).toBe('created_on');
    expect(found.body.meta.order_by_methods).toHaveProperty('pricevat');
    expect((await getJson('/books/search?q=x')).body.errors[0].code).toBe('InvalidSearch');
    expect((await getJson('/books/search?q=nothing-like-this')).body.books).toEqual([]);
  });

  it('gets an author at /author/:id/ and pages their books', async () => {
    const author = await getJson('/author/502/');
    expect(author.body).toEqual({
      author: {
        id: 502,
        name: 'John Smith',
        bio: 'John Smith writes on philosophy, literature and history.',
        image: 'https://www.marketplace.test/images/authors/502.jpg',
      },
    });
    const books = await getJson('/author/502/books?per=4');
    expect(books.body.meta.pagination).toEqual({ total_results: 9, total_pages: 3, page: 1, per: 4 });
    expect(books.body.books.every((b: { main_author_id: number }) => b.main_author_id === 502)).toBe(true);
    expect((await getJson('/author/999/')).status).toBe(404);
  });
});

describe('SKU reviews: forms and writes', () => {
  const skuPath = () => `/skus/${mock.catalog.ids.sku}/reviews`;
  const post = (body: unknown, init: RequestInit = {}) =>
    fetch(`${BASE}${skuPath()}`, { method: 'POST', headers: userJson(), body: JSON.stringify(body), ...init });

  it('serves the new-review form to the account token only', async () => {
    const form = await getJson(`${skuPath()}/new`, 'test-account-token');
    expect(form.status).toBe(200);
    expect(form.body.review_form.requires_body).toBe(false);
    expect(form.body.review_form.questions.map((q: { type: string }) => q.type)).toEqual([
      'profiling_multiple',
      'eval_sentiment',
      'eval_sentiment',
      'eval_sentiment',
    ]);
    expect(form.body.review_form.questions[2].answers).toEqual([
      { id: 561, text: 'Yes' },
      { id: 562, text: 'So-so' },
      { id: 563, text: 'No' },
    ]);
    const forbidden = await getJson(`${skuPath()}/new`);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ errors: [{ code: 'forbidden', messages: ['The access token lacks the publish_sku_review_actions permission.'] }] });
    const anonymous = await fetch(`${BASE}${skuPath()}/new`, { headers: { Accept: 'application/vnd.marketplace+json' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await getJson('/skus/1/reviews/new', 'test-account-token')).status).toBe(404);
  });

  it('creates a review as recorded (201, sentiments from the answers); it leads the listing and counts', async () => {
    const before = (await getJson(`/skus/${mock.catalog.ids.sku}`)).body.sku.reviews_count;
    const created = await post({ review: { rating: 5, answer_ids: [561, 3944], review: 'Solid phone.' } });
    expect(created.status).toBe(201);
    const { sku_review: review } = await created.json();
    expect(review).toEqual({
      id: expect.any(Number),
      sku_id: mock.catalog.ids.sku,
      user_id: 334941,
      review: 'Solid phone.',
      rating: 5,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[23]:00$/),
      demoted: false,
      votes_count: 0,
      helpful_votes_count: 0,
      sentiments: { positive: ['Value for money', 'Screen resolution'] },
    });
    const listed = (await getJson(skuPath())).body;
    expect(listed.reviews[0]).toMatchObject({ id: review.id, rating: 5, voted: false, flagged: false, helpful: false });
    expect(listed.meta.pagination.total_results).toBe(8);
    expect((await getJson(`/skus/${mock.catalog.ids.sku}`)).body.sku.reviews_count).toBe(before + 1);

    const edit = (await getJson(`${skuPath()}/${review.id}/edit`, 'test-account-token')).body.review_form;
    expect(edit).toMatchObject({ requires_body: false, rating: 5, review: 'Solid phone.' });
    const selected = edit.questions.flatMap((q: { answers: { id: number; selected?: boolean }[] }) => q.answers.filter((a) => a.selected).map((a) => a.id));
    expect(selected).toEqual([561, 3944]);
  });

  it('refuses a rating outside 1..5 (or missing) with 422 InvalidReview, and other bad bodies', async () => {
    for (const rating of [0, 6, 4.5, '5', undefined]) {
      const refused = await post({ review: { rating } });
      expect(refused.status).toBe(422);
      expect(await refused.json()).toEqual({ errors: [{ code: 'InvalidReview', messages: ['Rating must be an integer from 1 to 5'] }] });
    }
    const unknownAnswer = await post({ review: { rating: 3, answer_ids: [1] } });
    expect((await unknownAnswer.json()).errors[0].messages).toEqual(["Answer ids must be ids of the review form's answers"]);
    expect((await post({ rating: 5 })).status).toBe(400);
    expect((await post({ review: { rating: 5 } }, { headers: headers('test-account-token') })).status).toBe(415);
    expect((await post({ review: { rating: 5 } }, { headers: headers('test-catalog-token', { 'Content-Type': 'application/json' }) })).status).toBe(403);
    expect((await getJson(skuPath())).body.meta.pagination.total_results).toBe(7);
  });

  it('updates a review (200) and deletes it (204, gone from the listing; 404 afterwards)', async () => {
    const { sku_review: created } = await (await post({ review: { rating: 5, review: 'First take.' } })).json();
    const path = `${BASE}${skuPath()}/${created.id}`;
    const updated = await fetch(path, { method: 'PUT', headers: userJson(), body: JSON.stringify({ review: { rating: 4 } }) });
    expect(updated.status).toBe(200);
    expect((await updated.json()).sku_review).toMatchObject({ id: created.id, rating: 4, review: 'First take.', sku_id: mock.catalog.ids.sku });
    const badUpdate = await fetch(path, { method: 'PUT', headers: userJson(), body: JSON.stringify({ review: { rating: 9 } }) });
    expect(badUpdate.status).toBe(422);
    expect((await getJson(skuPath())).body.reviews[0]).toMatchObject({ id: created.id, rating: 4 });

    const deleted = await fetch(path, { method: 'DELETE', headers: headers('test-account-token') });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const ids = (await getJson(skuPath())).body.reviews.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(created.id);
    expect(ids).toHaveLength(7);

    const again = await fetch(path, { method: 'DELETE', headers: headers('test-account-token') });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ errors: [{ code: 'RecordNotFound', messages: [`Couldn't find SkuReview with 'id'=${created.id}`] }] });
    expect((await fetch(path, { method: 'PUT', headers: userJson(), body: '{"review":{"rating":3}}' })).status).toBe(404);
    expect((await getJson(`${skuPath()}/${created.id}/edit`, 'test-account-token')).status).toBe(404);
  });

  it("does not let the user change another user's review", async () => {
    const seeded = (await getJson(skuPath())).body.reviews[0].id;
    const path = `${BASE}${skuPath()}/${seeded}`;
    expect((await fetch(path, { method: 'DELETE', headers: headers('test-account-token') })).status).toBe(404);
    expect((await fetch(path, { method: 'DELETE', headers: headers() })).status).toBe(403);
    expect((await getJson(skuPath())).body.reviews[0].id).toBe(seeded);
  });
});

describe('SKU product cards', () => {
  it('groups the offers per shop with the costs on the card, as recorded', async () => {
    const { status, body } = await getJson(`/skus/${mock.catalog.ids.sku}/product_cards`);
    expect(status).toBe(200);
    expect(body.product_cards).toHaveLength(5);
    const [group] = body.product_cards;
    expect(Object.keys(group)).toEqual(['cards']);
    const [card] = group.cards;
    expect(Object.keys(card).sort()).toEqual(['blp', 'products', 'shop']);
    expect(card.products[0]).not.toHaveProperty('blp');
    expect(card.products[0].sku_id).toBe(mock.catalog.ids.sku);
    expect(card.shop.id).toBe(card.products[0].shop_id);
    expect(card.blp.final_price).toBe(card.products[0].price);
    expect(body.meta).toMatchObject({ ordered_by: 'net_price', pagination: { total_results: 5, total_pages: 1, page: 1, per: 25 } });
    expect(body.meta.personalization.location).toBeDefined();
  });
});
