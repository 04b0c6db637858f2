/** Document 3's user-account endpoints through `client.account`. */
import {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RequestValidationError,
} from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, TOKEN, useMswServer } from '../../helpers/server.js';
import { ACCEPT_32, capture, queryOf, rejection } from '../catalog/helpers.js';

const server = useMswServer();
const client = () => makeClient({ maxRetries: 0, rateLimit: false, cache: false });
const noContent = () => new HttpResponse(null, { status: 204 });

function countRequests(): { count: number } {
  const counter = { count: 0 };
  server.use(
    http.all(`${BASE}/*`, () => {
      counter.count++;
      return HttpResponse.json({}, { status: 500 });
    }),
  );
  return counter;
}

const favorite = { id: 5, user_id: 1, sku_id: 3443837, have_it: null, user_notes: null, created_at: '2018-01-01T00:00:00+02:00', get_absolute_threshold: '250.0' };
const address = { id: 9, label: 'Home', first_name: 'A', last_name: 'B', street_name: 'Ermou', street_number: '1', city: 'Athens', zip: '10563', region: 'Attica', phone: null, mobile: '69', lat: null, lng: null };
const newAddress = { label: 'Home', first_name: 'A', last_name: 'B', street_name: 'Ermou', street_number: '1', city: 'Athens', zip: '10563', region_id: 1 };
const notification = { id: 77, etype: 'price_drop', eventable_id: 3443837, eventable_type: 'Sku', snapshot: { price_min: 10, latest_price: 9, change_rate: -0.1, from_threshold: true }, is_viewed: false, sku: { id: 3443837, display_name: 'Cream' } };

describe('favorite lists', () => {
  it('list → GET /favorite_lists, a page with pagination', async () => {
    const seen = capture(server, 'get', `${BASE}/favorite_lists`, () =>
      HttpResponse.json({ favorite_lists: [{ id: -3, name: 'Phones', category_id: 40, type: 'auto' }], meta: { pagination: { page: 1, total_pages: 1 } } }),
    );
    const page = await client().account.favoriteLists.list({ per: 5 });
    expect(queryOf(seen[0]!.url)).toEqual({ per: '5' });
    expect(seen[0]!.headers.get('accept')).toBe(ACCEPT_32);
    expect(page.items[0]).toEqual({ id: -3, name: 'Phones', category_id: 40, type: 'auto' });
    expect(page.pagination?.total_pages).toBe(1);
  });

  it('create → POST /favorite_lists with { favorite_list: { name } } (201)', async () => {
    const seen = capture(server, 'post', `${BASE}/favorite_lists`, () =>
      HttpResponse.json({ favorite_list: { id: 12, name: 'Gifts', category_id: null, type: 'custom' } }, { status: 201 }),
    );
    const list = await client().account.favoriteLists.create({ name: 'Gifts' });
    expect(seen[0]!.body).toEqual({ favorite_list: { name: 'Gifts' } });
    expect(seen[0]!.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(list.type).toBe('custom');
  });

  it('delete → DELETE /favorite_lists/:id, 204 resolves to undefined; 404 is NotFoundError', async () => {
    const seen = capture(server, 'delete', `${BASE}/favorite_lists/:id`, (s) =>
      s.url.pathname.endsWith('/12') ? noContent() : HttpResponse.json({ errors: [{ code: 'RecordNotFound', messages: ['not found'] }] }, { status: 404 }),
    );
    await expect(client().account.favoriteLists.delete(12)).resolves.toBeUndefined();
    expect(await rejection(client().account.favoriteLists.delete(13))).toBeInstanceOf(NotFoundError);
    expect(seen.map((s) => s.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('favorites of a list, auto lists included (negative ids)', async () => {
    const seen = capture(server, 'get', `${BASE}/favorite_lists/:id/favorites`, () => HttpResponse.json({ favorites: [favorite] }));
    const page = await client().account.favoriteLists.favorites(-3);
    expect(seen[0]!.url.pathname).toBe('/favorite_lists/-3/favorites');
    expect(page.items).toEqual([favorite]);
  });
});

describe('favorites', () => {
  it('list with owned and order_dir', async () => {
    const seen = capture(server, 'get', `${BASE}/favorites`, () => HttpResponse.json({ favorites: [favorite], meta: { pagination: { page: 1, total_pages: 1 } } }));
    const page = await client().account.favorites.list({ owned: true, order_dir: 'asc' });
    expect(queryOf(seen[0]!.url)).toEqual({ owned: 'true', order_dir: 'asc' });
    expect(page.items[0]?.get_absolute_threshold).toBe('250.0');
  });

  it('get → GET /favorites/:id, unwrapped', async () => {
    capture(server, 'get', `${BASE}/favorites/5`, () => HttpResponse.json({ favorite }));
    expect(await client().account.favorites.get(5)).toEqual(favorite);
  });

  it('create → POST /favorites with { favorite: { sku_id, ... } } (201)', async () => {
    const seen = capture(server, 'post', `${BASE}/favorites`, () => HttpResponse.json({ favorite }, { status: 201 }));
    const created = await client().account.favorites.create({ sku_id: 3443837, new_list_name: 'Gifts' });
    expect(seen[0]!.body).toEqual({ favorite: { sku_id: 3443837, new_list_name: 'Gifts' } });
    expect(created.id).toBe(5);
  });

  it('create needs sku_id: refused before sending', async () => {
    const sent = countRequests();
    // @ts-expect-error sku_id is required
    const error = await rejection(client().account.favorites.create({ favorite_list_id: 3 }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['sku_id']);
    expect(sent.count).toBe(0);
  });

  it('update → PUT /favorites/:id; a failed update (400 with errors) is a BadRequestError', async () => {
    const seen = capture(server, 'put', `${BASE}/favorites/:id`, (s) =>
      s.url.pathname.endsWith('/5')
        ? HttpResponse.json({ favorite: { ...favorite, have_it: true } })
        : HttpResponse.json({ errors: [{ code: 'invalid', messages: ['List not found'] }] }, { status: 400 }),
    );
    const updated = await client().account.favorites.update(5, { have_it: true });
    expect(seen[0]!.body).toEqual({ favorite: { have_it: true } });
    expect(updated.have_it).toBe(true);
    const error = await rejection(client().account.favorites.update(6, { favorite_list_id: 99 }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('List not found');
  });

  it('delete → DELETE /favorites/:id, 204 → undefined', async () => {
    const seen = capture(server, 'delete', `${BASE}/favorites/5`, noContent);
    await expect(client().account.favorites.delete(5)).resolves.toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it('401 and 403 name the favorites permission, never the token', async () => {
    capture(server, 'get', `${BASE}/favorites/1`, () => HttpResponse.json({ errors: [{ code: 'unauthorized', messages: ['bad token'] }] }, { status: 401 }));
    capture(server, 'get', `${BASE}/favorite_lists`, () => HttpResponse.json({ errors: [{ code: 'forbidden', messages: ['no scope'] }] }, { status: 403 }));
    const unauthorized = await rejection(client().account.favorites.get(1));
    const forbidden = await rejection(client().account.favoriteLists.list());
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    for (const error of [unauthorized, forbidden]) {
      expect((error as Error).message).toContain('favorites permission');
      expect((error as Error).message).not.toContain(TOKEN);
    }
  });
});

describe('user', () => {
  const user = { id: 1, username: 'me', type: 'marketplace', sex: null, avatar: 'a.png', email: 'me@example.gr', stats: { sku_review_count: 2 }, is_staff: false };

  it('get → GET /user', async () => {
    capture(server, 'get', `${BASE}/user`, () => HttpResponse.json({ user }));
    expect(await client().account.user.get()).toEqual(user);
  });

  it('update → PATCH /user with base64 avatar or a preset', async () => {
    const seen = capture(server, 'patch', `${BASE}/user`, () => HttpResponse.json({ user: { ...user, sex: 'female' } }));
    const updated = await client().account.user.update({ sex: 'female', avatar: 'iVBORw0KGgo=' });
    await client().account.user.update({ avatar_preset: 'cat.png' });
    expect(seen.map((s) => s.body)).toEqual([{ sex: 'female', avatar: 'iVBORw0KGgo=' }, { avatar_preset: 'cat.png' }]);
    expect(updated.sex).toBe('female');
  });

  it('update refuses an avatar with a data-URI preamble, nothing sent', async () => {
    const sent = countRequests();
    const error = await rejection(client().account.user.update({ avatar: 'data:image/png;base64,iVBORw0KGgo=' }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['avatar']);
    expect(sent.count).toBe(0);
  });

  it('avatars → GET /user/avatars; logout → DELETE /user/logout', async () => {
    capture(server, 'get', `${BASE}/user/avatars`, () => HttpResponse.json({ avatars: ['https://x/cat.png'] }));
    const logout = capture(server, 'delete', `${BASE}/user/logout`, noContent);
    expect(await client().account.user.avatars()).toEqual(['https://x/cat.png']);
    await expect(client().account.user.logout()).resolves.toBeUndefined();
    expect(logout).toHaveLength(1);
  });
});

describe('addresses', () => {
  it('list, form, create, update, delete', async () => {
    capture(server, 'get', `${BASE}/user/addresses`, () => HttpResponse.json({ addresses: [address] }));
    capture(server, 'get', `${BASE}/user/addresses/new`, () =>
      HttpResponse.json({ address_form: { required: ['label', 'region_id'], optional: ['phone', 'mobile'], regions: { Attica: 1 } } }),
    );
    const created = capture(server, 'post', `${BASE}/user/addresses`, () => HttpResponse.json({ address }, { status: 201 }));
    const updated = capture(server, 'put', `${BASE}/user/addresses/9`, () => HttpResponse.json({ address: { ...address, city: 'Patra' } }));
    const deleted = capture(server, 'delete', `${BASE}/user/addresses/9`, noContent);
    const c = client();
    expect(await c.account.addresses.list()).toEqual([address]);
    expect((await c.account.addresses.form()).regions).toEqual({ Attica: 1 });
    expect(await c.account.addresses.create({ ...newAddress, phone: '210' })).toEqual(address);
    expect(created[0]!.body).toEqual({ ...newAddress, phone: '210' });
    expect((await c.account.addresses.update(9, { city: 'Patra' })).city).toBe('Patra');
    expect(updated[0]!.body).toEqual({ city: 'Patra' });
    await expect(c.account.addresses.delete(9)).resolves.toBeUndefined();
    expect(deleted).toHaveLength(1);
  });

  it('create needs every required field and a region_id from 1 to 57, checked before sending', async () => {
    const sent = countRequests();
    const c = client();
    const { zip: _zip, ...withoutZip } = newAddress;
    // @ts-expect-error zip is required
    const missing = await rejection(c.account.addresses.create(withoutZip));
    expect((missing as RequestValidationError).issues.map((i) => i.path)).toEqual([['zip']]);
    const region = await rejection(c.account.addresses.create({ ...newAddress, region_id: 58 }));
    expect((region as RequestValidationError).issues[0]?.path).toEqual(['region_id']);
    expect(await rejection(c.account.addresses.create({ ...newAddress, region_id: 0 }))).toBeInstanceOf(RequestValidationError);
    expect(sent.count).toBe(0);
  });
});

describe('saved orders and notifications', () => {
  it('savedOrders.list → GET /user/saved_orders, paginated', async () => {
    const order = { date: '2018-01-01', total_cost: 12.5, shop_id: 670, order_code: '180101-1', line_items: [{ name: 'x', quantity: 1, price: 12.5, image: null, sku_id: 1, product_id: 2, category_id: null }] };
    const seen = capture(server, 'get', `${BASE}/user/saved_orders`, () => HttpResponse.json({ saved_orders: [order], meta: { pagination: { page: 2, total_pages: 2 } } }));
    const page = await client().account.savedOrders.list({ page: 2 });
    expect(queryOf(seen[0]!.url)).toEqual({ page: '2' });
    expect(page.items).toEqual([order]);
    expect(page.hasNextPage()).toBe(false);
  });

  it('notifications: list, get, markViewed → POST /notifications/view { ids } (204 → undefined)', async () => {
    capture(server, 'get', `${BASE}/notifications`, () => HttpResponse.json({ notifications: [notification], meta: { pagination: { page: 1, total_pages: 1 } } }));
    capture(server, 'get', `${BASE}/notifications/77`, () => HttpResponse.json({ notification }));
    const viewed = capture(server, 'post', `${BASE}/notifications/view`, noContent);
    const c = client();
    const page = await c.account.notifications.list();
    expect(page.items[0]?.snapshot?.from_threshold).toBe(true);
    expect((await c.account.notifications.get(77)).etype).toBe('price_drop');
    await expect(c.account.notifications.markViewed([77, 78])).resolves.toBeUndefined();
    expect(viewed[0]!.body).toEqual({ ids: [77, 78] });
  });

  it('markViewed needs at least one positive id', async () => {
    const sent = countRequests();
    expect(await rejection(client().account.notifications.markViewed([]))).toBeInstanceOf(RequestValidationError);
    expect(await rejection(client().account.notifications.markViewed([0]))).toBeInstanceOf(RequestValidationError);
    expect(sent.count).toBe(0);
  });

  it('401 and 403 name the notifications permission', async () => {
    capture(server, 'get', `${BASE}/notifications`, () => HttpResponse.json({ errors: [{ code: 'unauthorized', messages: ['no'] }] }, { status: 401 }));
    capture(server, 'post', `${BASE}/notifications/view`, () => HttpResponse.json({ errors: [{ code: 'forbidden', messages: ['no'] }] }, { status: 403 }));
    const listError = await rejection(client().account.notifications.list());
    const viewError = await rejection(client().account.notifications.markViewed([1]));
    expect(listError).toBeInstanceOf(AuthenticationError);
    expect(viewError).toBeInstanceOf(PermissionDeniedError);
    expect((listError as Error).message).toContain('notifications permission');
    expect((viewError as Error).message).toContain('notifications permission');
  });
});

describe('a 401 on any user endpoint says what the call needs', () => {
  const review = { rating: 4, review: 'Good value' };
  const calls: [string, (c: ReturnType<typeof client>) => Promise<unknown>, string][] = [
    ['user.get', (c) => c.account.user.get(), 'a user token'],
    ['user.update', (c) => c.account.user.update({ sex: 'female' }), 'a user token'],
    ['user.avatars', (c) => c.account.user.avatars(), 'a user token'],
    ['user.logout', (c) => c.account.user.logout(), 'a user token'],
    ['addresses.list', (c) => c.account.addresses.list(), 'a user token'],
    ['addresses.form', (c) => c.account.addresses.form(), 'a user token'],
    ['addresses.create', (c) => c.account.addresses.create(newAddress), 'a user token'],
    ['addresses.update', (c) => c.account.addresses.update(9, { label: 'Work' }), 'a user token'],
    ['addresses.delete', (c) => c.account.addresses.delete(9), 'a user token'],
    ['savedOrders.list', (c) => c.account.savedOrders.list(), 'a user token'],
    ['favoriteLists.list', (c) => c.account.favoriteLists.list(), 'a user token with the favorites permission'],
    ['favoriteLists.create', (c) => c.account.favoriteLists.create({ name: 'Phones' }), 'a user token with the favorites permission'],
    ['favoriteLists.delete', (c) => c.account.favoriteLists.delete(3), 'a user token with the favorites permission'],
    ['favoriteLists.favorites', (c) => c.account.favoriteLists.favorites(3), 'a user token with the favorites permission'],
    ['favorites.list', (c) => c.account.favorites.list(), 'a user token with the favorites permission'],
    ['favorites.get', (c) => c.account.favorites.get(5), 'a user token with the favorites permission'],
    ['favorites.create', (c) => c.account.favorites.create({ sku_id: 3443837 }), 'a user token with the favorites permission'],
    ['favorites.update', (c) => c.account.favorites.update(5, { have_it: true }), 'a user token with the favorites permission'],
    ['favorites.delete', (c) => c.account.favorites.delete(5), 'a user token with the favorites permission'],
    ['notifications.list', (c) => c.account.notifications.list(), 'a user token with the notifications permission'],
    ['notifications.get', (c) => c.account.notifications.get(77), 'a user token with the notifications permission'],
    ['notifications.markViewed', (c) => c.account.notifications.markViewed([77]), 'a user token with the notifications permission'],
    ['catalog.skus.favorite', (c) => c.catalog.skus.favorite(1), 'a user token with the favorites permission'],
    ['catalog.skus.newReviewForm', (c) => c.catalog.skus.newReviewForm(1), 'a user token with the publish_sku_review_actions permission'],
    ['catalog.skus.editReviewForm', (c) => c.catalog.skus.editReviewForm(1, 2), 'a user token with the publish_sku_review_actions permission'],
    ['catalog.skus.createReview', (c) => c.catalog.skus.createReview(1, review), 'a user token with the publish_sku_review_actions permission'],
    ['catalog.skus.updateReview', (c) => c.catalog.skus.updateReview(1, 2, review), 'a user token with the publish_sku_review_actions permission'],
    ['catalog.skus.deleteReview', (c) => c.catalog.skus.deleteReview(1, 2), 'a user token with the publish_sku_review_actions permission'],
    ['catalog.skus.voteReview', (c) => c.catalog.skus.voteReview(1, 2, { helpful: true }), 'a user token with the publish_sku_review_actions permission'],
    ['catalog.skus.flagReview', (c) => c.catalog.skus.flagReview(1, 2, { reason: 'spam' }), 'a user token with the publish_sku_review_actions permission'],
  ];

  it.each(calls)('%s', async (_name, call, needs) => {
    server.use(http.all(`${BASE}/*`, () => HttpResponse.json({ errors: [{ code: 'unauthorized', messages: ['Unauthorized'] }] }, { status: 401 })));
    const error = await rejection(call(client()));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain(`this call needs ${needs}`);
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it('a public catalog call names no token need', async () => {
    server.use(http.all(`${BASE}/*`, () => HttpResponse.json({ errors: [{ code: 'unauthorized', messages: ['Unauthorized'] }] }, { status: 401 })));
    const error = await rejection(client().catalog.categories.get(1));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).not.toContain('this call needs');
  });
});
