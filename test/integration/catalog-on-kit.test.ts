/**
 * Every `client.catalog` method, review writes included, through the SDK against the kit's
 * loopback server: real values in, real values out, state kept between calls.
 */
import {
  MarketplaceClient,
  NotFoundError,
  PermissionDeniedError,
  RequestValidationError,
  UnprocessableEntityError,
} from 'emporio';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let server: RunningMockMarketplace;
let client: MarketplaceClient;
beforeEach(async () => {
  server = await startMockMarketplace({ port: 0 });
  client = new MarketplaceClient({ baseUrl: server.url, vendor: server.mock.vendor, tokens: server.mock.tokens, rateLimit: false });
});
afterEach(() => server.close());

const rejection = (promise: Promise<unknown>) => promise.then(
  () => undefined,
  (error: unknown) => error,
);

/** Collects a listing by iterating it to the end (bounded), with the number of pages read. */
async function collect<T>(pages: AsyncIterable<{ items: T[] }>, limit = 20) {
  const items: T[] = [];
  let count = 0;
  for await (const page of pages) {
    items.push(...page.items);
    if (++count >= limit) break;
  }
  return { items, pages: count };
}

describe('categories, SKUs, products, shops, manufacturers, search', () => {
  it('reads the category tree and a leaf category', async () => {
    const { ids } = server.mock.catalog;
    const { catalog } = client;
    const all = await collect(catalog.categories.list({ per: 5 }).pages());
    expect(all.items.map((c) => c.id)).toEqual(server.mock.catalog.categories().map((c) => c.id));
    expect(all.pages).toBe(3);
    expect((await catalog.categories.root()).id).toBe(ids.root);
    expect((await catalog.categories.get(ids.leaf)).name).toBe('Mobile phones');
    expect((await catalog.categories.parent(ids.leaf)).id).toBe(ids.family);
    expect((await catalog.categories.children(ids.family)).map((c) => c.id)).toEqual([40, 41, 42]);
    const specifications = await catalog.categories.specifications(ids.leaf, { include: 'group' });
    expect(specifications.specifications?.map((s) => s.name)).toEqual(['Colour', 'Weight', 'Warranty']);
    expect(specifications.groups?.[0]?.name).toBe('General');
    const skus = await collect(catalog.categories.skus(41, { order_by: 'pricevat', order_dir: 'asc' }).pages());
    expect(skus.items.map((s) => s.id)).toEqual(
      server.mock.catalog.skus(41).sort((a, b) => a.price_min - b.price_min || a.id - b.id).map((s) => s.id),
    );
    expect(skus.pages).toBe(2);
    expect((await catalog.categories.filterGroups(ids.leaf)).map((g) => g.name)).toEqual(['Price', 'Colour']);
    const makers = new Set(server.mock.catalog.skus(ids.leaf).map((s) => s.manufacturer_id));
    expect((await catalog.categories.manufacturers(ids.leaf)).items.map((m) => m.id).sort()).toEqual([...makers].sort());
    const favorites = await catalog.categories.favorites(ids.leaf);
    expect(favorites.items.map((f) => f.sku_id)).toEqual(server.mock.account.favorites().map((f) => f.sku_id));
  });

  it('reads a SKU, its specifications, prices, offers, product cards, similar SKUs and favorite', async () => {
    const { ids } = server.mock.catalog;
    const { skus } = client.catalog;
    const sku = await skus.get(ids.sku);
    expect(sku).toMatchObject({ id: ids.sku, category_id: ids.leaf, reviews_count: 7, shop_count: 5 });
    expect((await skus.specifications(ids.sku)).meta?.full_description).toContain(sku.name as string);
    const history = await skus.priceHistory(ids.sku);
    expect(history.lowest?.every((p) => p.price === sku.price_min)).toBe(true);
    const offers = await skus.products(ids.sku);
    expect(offers.items.map((p) => p.shop_id)).toEqual([1001, 1002, 1003, 1004, 1005]);
    expect(offers.meta?.ordered_by).toBe('net_price');
    const cards = await skus.productCards(ids.sku);
    expect(cards.items.map((g) => g.cards?.[0]?.shop?.id)).toEqual([1001, 1002, 1003, 1004, 1005]);
    expect(cards.items[0]?.cards?.[0]?.blp?.final_price).toBe(offers.items[0]?.price);
    expect(cards.meta?.personalization?.location?.address_id).toBe(1);
    const similar = await skus.similar(ids.sku);
    expect(similar.items).toHaveLength(5);
    expect(similar.items.every((s) => s.category_id === ids.leaf && s.id !== ids.sku)).toBe(true);
    expect((await skus.favorite(ids.sku)).map((f) => f.sku_id)).toEqual([ids.sku]);
    const product = await client.catalog.products.get(offers.items[0]?.id as number);
    expect(product.product.sku_id).toBe(ids.sku);
    expect(await rejection(skus.get(1))).toBeInstanceOf(NotFoundError);
  });

  it('reads shops, locations and manufacturers, and searches', async () => {
    const { catalog } = client;
    const shop = await catalog.shops.get(1001);
    expect(shop.name).toBe('Kotsovolos Online');
    const reviews = await catalog.shops.reviews(1001, { include_meta: 'shop_rating_breakdown', per: 5 });
    expect(reviews.items).toHaveLength(5);
    expect(reviews.meta?.shop_rating_breakdown?.map((b) => b.count)).toEqual([9, 3]);
    const locations = await catalog.shops.locations(1001, { embed: 'address' });
    expect(locations.map((l) => l.address?.city)).toEqual(['Athens', 'Athens']);
    expect((await catalog.shops.location(1001, 10011)).headquarter).toBe(false);
    expect((await catalog.shops.search('plaisio')).map((s) => s.id)).toEqual([1003]);
    const offers = await catalog.skus.products(server.mock.catalog.ids.sku);
    const uid = offers.items[0]?.shop_uid as string;
    expect((await catalog.shops.searchProducts(1001, { shop_uid: uid })).map((p) => p.shop_uid)).toContain(uid);
    const near = await catalog.locations.find({ lat: '37.975', lng: '23.735' });
    expect(near[0]?.id).toBe(10010);

    const makers = await collect(catalog.manufacturers.list({ per: 3 }).pages());
    expect(makers.items.map((m) => m.id)).toEqual([101, 102, 103, 104, 105, 106, 107, 108]);
    expect((await catalog.manufacturers.get(105)).name).toBe('Bosch');
    const madeBy = server.mock.catalog.categories().filter((c) => server.mock.catalog.skus(c.id).some((s) => s.manufacturer_id === 101));
    expect((await catalog.manufacturers.categories(101)).items.map((c) => c.id)).toEqual(madeBy.map((c) => c.id));
    const skus = await catalog.manufacturers.skus(101, { order_by: 'price', order_dir: 'asc', per: 10 });
    const prices = skus.items.map((s) => s.price_min as number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    const found = await catalog.search('apple');
    expect(found.meta?.q).toBe('apple');
    expect(found.meta?.strong_matches?.manufacturer?.id).toBe(101);
    expect(found.items.length).toBeGreaterThan(0);
    const suggestions = await catalog.autocomplete('sony');
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.every((s) => s.k?.includes('sony'))).toBe(true);
  });

  it('reads the flags and reads and updates the personalization', async () => {
    expect((await client.catalog.flags.list()).map((f) => f.reason)).toEqual(['bad_language', 'wrong_section', 'spam']);
    expect((await client.catalog.personalization.get()).location?.address_id).toBe(1);
    const updated = await client.catalog.personalization.update({ location: { address_id: 7 } });
    expect(updated.location?.address_id).toBe(7);
    expect((await client.catalog.personalization.get()).location?.address_id).toBe(7);
  });
});

describe('SKU reviews', () => {
  it('creates, edits, votes, flags and deletes a review; the listing follows', async () => {
    const skuId = server.mock.catalog.ids.sku;
    const { skus } = client.catalog;
    const form = await skus.newReviewForm(skuId);
    expect(form.requires_body).toBe(false);
    const worth = form.questions?.find((q) => q.text === 'Is it worth its price?');
    const yes = worth?.answers?.find((a) => a.text === 'Yes')?.id as number;

    const created = await skus.createReview(skuId, { rating: 5, review: 'Great value.', answer_ids: [yes] });
    expect(created).toMatchObject({ sku_id: skuId, user_id: 334941, rating: 5, review: 'Great value.', demoted: false });
    expect(created.sentiments?.positive).toEqual(['Value for money']);
    const listed = await skus.reviews(skuId, { include_meta: 'sku_rating_breakdown' });
    expect(listed.items[0]?.id).toBe(created.id);
    expect(listed.pagination?.total_results).toBe(8);
    expect(listed.meta?.sku_rating_breakdown?.find((b) => b.star === 5)?.count).toBe(4);
    expect((await skus.get(skuId)).reviews_count).toBe(8);

    const edit = await skus.editReviewForm(skuId, created.id);
    expect(edit).toMatchObject({ rating: 5, review: 'Great value.' });
    const selected = edit.questions?.flatMap((q) => q.answers?.filter((a) => a.selected).map((a) => a.id) ?? []);
    expect(selected).toEqual([yes]);

    const updated = await skus.updateReview(skuId, created.id, { rating: 4 });
    expect(updated).toMatchObject({ id: created.id, rating: 4, review: 'Great value.' });
    expect((await skus.reviews(skuId)).items[0]?.rating).toBe(4);

    const vote = await skus.voteReview(skuId, created.id, { helpful: true }, { embed: 'sku_review' });
    expect(vote).toMatchObject({ sku_review_id: created.id, helpful: true });
    expect(vote.sku_review?.helpful_votes_count).toBe(1);
    const flag = await skus.flagReview(skuId, created.id, { reason: 'spam' });
    expect(flag).toMatchObject({ flaggable_id: created.id, flaggable_type: 'SkuReview', reason: 'spam' });

    await skus.deleteReview(skuId, created.id);
    const all = await collect(skus.reviews(skuId, { per: 3 }).pages());
    expect(all.items.map((r) => r.id)).not.toContain(created.id);
    expect(all.items).toHaveLength(7);
    expect(all.pages).toBe(3);
    expect((await skus.get(skuId)).reviews_count).toBe(7);
    expect(await rejection(skus.deleteReview(skuId, created.id))).toBeInstanceOf(NotFoundError);
    expect(await rejection(skus.editReviewForm(skuId, created.id))).toBeInstanceOf(NotFoundError);
  });

  it('refuses bad reviews: the SDK before sending, the kit with 422; a catalog-only token with 403', async () => {
    const skuId = server.mock.catalog.ids.sku;
    const sent = server.mock.requests.length;
    const invalid = await rejection(client.catalog.skus.createReview(skuId, { rating: 6 }));
    expect(invalid).toBeInstanceOf(RequestValidationError);
    expect(server.mock.requests.length).toBe(sent);

    const refused = await rejection(client.catalog.skus.createReview(skuId, { rating: 3, answer_ids: [1] }));
    expect(refused).toBeInstanceOf(UnprocessableEntityError);
    expect((refused as UnprocessableEntityError).code).toBe('InvalidReview');
    expect((refused as UnprocessableEntityError).errors[0]?.messages).toEqual(["Answer ids must be ids of the review form's answers"]);

    const catalogOnly = new MarketplaceClient({
      baseUrl: server.url,
      vendor: server.mock.vendor,
      token: server.mock.tokens.catalog,
      rateLimit: false,
    });
    const denied = await rejection(catalogOnly.catalog.skus.createReview(skuId, { rating: 5 }));
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect((denied as Error).message).toContain('publish_sku_review_actions');
    expect((denied as Error).message).not.toContain(server.mock.tokens.catalog);
    expect((await client.catalog.skus.reviews(skuId)).pagination?.total_results).toBe(7);
  });
});

describe('books, authors, book categories, publishers', () => {
  it("lists book categories, a category's subcategories, and iterates its books over 2 pages", async () => {
    const { bookCategories } = client.catalog;
    const { books: kit } = server.mock.catalog;
    expect((await bookCategories.list()).map((c) => c.name)).toEqual(['Philosophy', 'Literature', 'History. Geography']);
    expect(await bookCategories.get(kit.ids.bookCategory)).toEqual({ id: 1857, name: 'Philosophy' });
    const filters = await bookCategories.filters(kit.ids.bookCategory);
    expect(filters.categories.map((c) => c.name)).toEqual(['Knowledge', 'Ethics', 'Logic']);
    expect(filters.meta?.ancestor).toEqual({ id: 1857, name: 'Philosophy' });
    const search = await bookCategories.filters({ q: 'logic' });
    expect(search.categories).toEqual([{ id: 1599, name: 'Logic', match_count: 10 }]);
    expect(await rejection(bookCategories.filters({ q: 'l' }))).toBeInstanceOf(RequestValidationError);

    const books = await collect(bookCategories.books(kit.ids.bookCategory).pages());
    expect(books.pages).toBe(2);
    expect(books.items).toHaveLength(30);
    expect(new Set(books.items.map((b) => b.id))).toEqual(new Set(kit.books(1857).map((b) => b.id)));
    const first = await bookCategories.books(kit.ids.bookCategory);
    expect(first.meta?.ordered_by).toBe('popularity');
    expect(first.hasNextPage()).toBe(true);
    expect(await rejection(bookCategories.get(4242))).toBeInstanceOf(NotFoundError);
  });

  it('reads a publisher and its books, a book, its details and author, and searches books', async () => {
    const { catalog } = client;
    const { ids } = server.mock.catalog.books;
    const publisher = await catalog.publishers.get(ids.publisher);
    expect(publisher).toMatchObject({ id: 78, name: 'Athens Press', website: 'www.publisher78.example' });
    const published = await collect(catalog.publishers.books(ids.publisher, { per: 10 }).pages());
    expect(published.items).toHaveLength(15);
    expect(published.pages).toBe(2);

    const book = await catalog.books.get(ids.book);
    expect(book).toMatchObject({ id: ids.book, name: 'Knowledge: Essays, vol. 1', main_author_id: ids.author, reviewable: true });
    const details = await catalog.books.details(ids.book);
    expect(details).toMatchObject({ series: 'Knowledge', cover: 'Paperback' });
    expect(typeof details.isbn).toBe('string');
    const sameAuthor = await catalog.books.similarByAuthor(ids.book);
    expect(sameAuthor).toHaveLength(8);
    expect(sameAuthor.every((b) => b.main_author_id === ids.author && b.id !== ids.book)).toBe(true);

    const author = await catalog.authors.get(ids.author);
    expect(author).toMatchObject({ id: 501, name: 'Maria Papadaki' });
    const authored = await collect(catalog.authors.books(ids.author, { per: 4 }).pages());
    expect(authored.items.map((b) => b.id).sort()).toEqual([ids.book, ...sameAuthor.map((b) => b.id)].sort());
    expect(authored.pages).toBe(3);

    const found = await catalog.books.search('letters', { order_by: 'pricevat', order_dir: 'asc' });
    const prices = found.items.map((b) => b.price_min as number);
    expect(found.items.length).toBe(server.mock.catalog.books.books().filter((b) => b.name.includes('Letters')).length);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(found.meta?.ordered_by).toBe('pricevat');
    expect(await rejection(catalog.books.search('x'))).toBeInstanceOf(RequestValidationError);
    expect(await rejection(catalog.authors.get(999))).toBeInstanceOf(NotFoundError);
  });
});
