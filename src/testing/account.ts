/**
 * The user-account resources of the Account API documentation for the account token: favorite lists and favorites
 * (with rules 1 to 5), the profile, addresses, saved orders and notifications.
 */
import type { MockSku } from './catalog.js';
import type { CoreContext } from './context.js';
import { paginate } from './paginate.js';
import type { Route, RouteContext } from './router.js';
import { cents, copy, fail, json, readJsonBody, timestamp } from './wire.js';

export interface FavoriteList {
  id: number;
  name: string;
  category_id: number | null;
  type: 'custom' | 'auto';
}
export interface Favorite {
  id: number;
  user_id: number;
  sku_id: number;
  favorite_list_id: number | null;
  have_it: boolean | null;
  user_notes: string | null;
  created_at: string;
  updated_at: string;
  get_absolute_threshold: string | null;
}

const USER_ID = 334_941;

export function createAccount(core: CoreContext, catalog: { sku: (id: number) => MockSku | undefined; firstSkus: () => MockSku[] }) {
  const lists: FavoriteList[] = [{ id: 1, name: 'Wishlist', category_id: null, type: 'custom' }];
  const favorites: Favorite[] = [];
  let nextListId = 2;
  let nextFavoriteId = 1;
  let loggedOut = false;
  const now = () => timestamp(core.now());

  const user = {
    id: USER_ID,
    username: 'test-user',
    type: 'marketplace',
    sex: null as string | null,
    avatar: 'https://www.marketplace.test/images/avatars/default.png',
    created_at: timestamp(Date.UTC(2020, 0, 1)),
    email: 'test-user@example.com',
    birthyear: null as number | null,
    mobile: null,
    stats: { sku_review_count: 2, shop_review_count: 1, sku_comment_count: 0, received_votes: 4 },
    email_notifications: [{ field: 'notifications', label: 'Notifications', description: 'Price drops and news', enabled: true }],
    resend_verification_email: false,
    loyalty_tier_level: 1,
    total_acquired_points: 120,
    is_staff: false,
  };
  const addresses: Record<string, unknown>[] = [
    { id: 1, label: 'Home', first_name: 'Maria', last_name: 'Papadopoulou', street_name: 'Ermou', street_number: '10', city: 'Athens', zip: '10563', region: 'Attica', phone: null, mobile: '6901234567', lng: '23.735', lat: '37.975' },
  ];
  let nextAddressId = 2;

  const autoListFor = (sku: MockSku): number => {
    const id = -sku.category_id;
    if (!lists.some((l) => l.id === id)) lists.push({ id, name: `Category ${sku.category_id}`, category_id: sku.category_id, type: 'auto' });
    return id;
  };
  const customList = (name: string): number => {
    const found = lists.find((l) => l.type === 'custom' && l.name === name);
    if (found) return found.id;
    const created: FavoriteList = { id: nextListId++, name, category_id: null, type: 'custom' };
    lists.push(created);
    return created.id;
  };
  const addFavorite = (skuId: number, listId: number | null, haveIt: boolean | null = null): Favorite => {
    const at = now();
    const favorite: Favorite = {
      id: nextFavoriteId++,
      user_id: USER_ID,
      sku_id: skuId,
      favorite_list_id: listId,
      have_it: haveIt,
      user_notes: null,
      created_at: at,
      updated_at: at,
      get_absolute_threshold: null,
    };
    favorites.push(favorite);
    return favorite;
  };
  const [first, second, third] = catalog.firstSkus();
  if (first) addFavorite(first.id, 1);
  if (second) addFavorite(second.id, autoListFor(second));
  if (third) addFavorite(third.id, null, true);

  const notifications = catalog.firstSkus().map((sku, i) => ({
    id: 9_000 + i,
    etype: 'price_drop',
    eventable_id: sku.id,
    eventable_type: 'Sku',
    eventable_name: sku.name,
    eventable_url: String(sku.web_uri),
    event_text: `The price of ${sku.name} dropped by 9.1%, to €${sku.price_min.toFixed(2)}`,
    snapshot: { price_min: sku.price_min, latest_price: cents(sku.price_min * 1.1), change_rate: -9.1, from_threshold: false },
    is_viewed: false,
    aggregated: false,
    created_at: timestamp(Date.UTC(2026, 2, 1 + i)),
    updated_at: timestamp(Date.UTC(2026, 2, 1 + i)),
    sku: { id: sku.id, category_id: sku.category_id, display_name: sku.display_name, images: sku.images, click_url: null, virtual: false, future: false, first_product_shop_info: sku.first_product_shop_info },
    category_name: `Category ${sku.category_id}`,
  }));

  const savedOrders = [
    {
      date: timestamp(Date.UTC(2026, 1, 10)),
      products_cost: 199.99,
      shipping_cost: 0,
      total_cost: 199.99,
      shop_id: 1001,
      order_code: '260210-1000001',
      line_items: first ? [{ name: first.name, quantity: 1, price: 199.99, image: null, sku_id: first.id, product_id: null, category_id: first.category_id }] : [],
    },
  ];

  const notFound = (kind: string, id?: string): never => fail(404, 'RecordNotFound', `Couldn't find ${kind} with 'id'=${id ?? ''}`);
  const favoriteOf = (raw?: string) => favorites.find((f) => f.id === Number(raw)) ?? notFound('Favorite', raw);
  const noContent = () => new Response(null, { status: 204 });
  const route = (method: string, pattern: string, handler: (c: RouteContext) => Response | Promise<Response>): Route => ({
    method,
    pattern,
    api: 'account',
    handler,
  });

  const routes: Route[] = [
    route('GET', '/favorite_lists', ({ url }) => paginate(url, 'favorite_lists', lists)),
    route('POST', '/favorite_lists', async ({ request }) => {
      const body = await readJsonBody(request);
      const name = (body.favorite_list as { name?: unknown } | undefined)?.name;
      if (typeof name !== 'string' || name.trim() === '') fail(400, 'InvalidParameter', 'favorite_list.name is required');
      if (lists.some((l) => l.type === 'custom' && l.name === name)) fail(422, 'InvalidFavoriteList', 'Name has already been taken');
      const created: FavoriteList = { id: nextListId++, name: name as string, category_id: null, type: 'custom' };
      lists.push(created);
      return json(201, { favorite_list: created });
    }),
    route('DELETE', '/favorite_lists/:id', ({ params }) => {
      const index = lists.findIndex((l) => l.id === Number(params.id));
      if (index < 0) notFound('FavoriteList', params.id);
      const [removed] = lists.splice(index, 1);
      for (let i = favorites.length - 1; i >= 0; i--) if (favorites[i]?.favorite_list_id === removed?.id) favorites.splice(i, 1);
      return noContent();
    }),
    route('GET', '/favorite_lists/:id/favorites', ({ params }) => {
      if (!lists.some((l) => l.id === Number(params.id))) notFound('FavoriteList', params.id);
      return json(200, { favorites: favorites.filter((f) => f.favorite_list_id === Number(params.id)) });
    }),
    route('GET', '/favorites', ({ url }) => {
      const owned = url.searchParams.get('owned') === 'true';
      const list = favorites.filter((f) => (owned ? f.have_it === true : f.have_it !== true));
      const ordered = url.searchParams.get('order_dir') === 'asc' ? list : [...list].reverse();
      return paginate(url, 'favorites', ordered);
    }),
    route('GET', '/favorites/:id', ({ params }) => json(200, { favorite: favoriteOf(params.id) })),
    route('POST', '/favorites', async ({ request }) => {
      const body = (await readJsonBody(request)).favorite as Record<string, unknown> | undefined;
      const sku = Number.isInteger(body?.sku_id) ? catalog.sku(body?.sku_id as number) : undefined;
      if (!sku) fail(400, 'InvalidParameter', 'favorite.sku_id must be the id of an existing SKU');
      let listId: number;
      if (typeof body?.new_list_name === 'string') listId = customList(body.new_list_name);
      else if (Number.isInteger(body?.favorite_list_id)) {
        listId = body?.favorite_list_id as number;
        if (!lists.some((l) => l.id === listId)) notFound('FavoriteList', String(listId));
      } else listId = autoListFor(sku as MockSku); // rule: a favorite without a list goes to its category's auto list
      return json(201, { favorite: addFavorite((sku as MockSku).id, listId) });
    }),
    route('PUT', '/favorites/:id', async ({ request, params }) => {
      const favorite = favoriteOf(params.id);
      const body = ((await readJsonBody(request)).favorite ?? {}) as Record<string, unknown>;
      if (body.have_it === true) {
        // Rule 2: have_it wins over a list.
        favorite.have_it = true;
        favorite.favorite_list_id = null;
      } else if (typeof body.new_list_name === 'string') {
        // Rule 3: a new custom list; have_it becomes null.
        favorite.favorite_list_id = customList(body.new_list_name);
        favorite.have_it = null;
      } else if (Number.isInteger(body.favorite_list_id)) {
        const target = lists.find((l) => l.id === body.favorite_list_id);
        if (target?.type !== 'custom') fail(400, 'InvalidParameter', 'favorite_list_id must be one of your custom lists');
        favorite.favorite_list_id = target?.id ?? null;
        favorite.have_it = null;
      } else if (body.have_it === false) {
        favorite.have_it = false;
      } else {
        fail(400, 'InvalidParameter', 'Nothing to update: send have_it, favorite_list_id or new_list_name');
      }
      favorite.updated_at = now();
      return json(200, { favorite });
    }),
    route('DELETE', '/favorites/:id', ({ params }) => {
      const favorite = favoriteOf(params.id);
      favorites.splice(favorites.indexOf(favorite), 1);
      return noContent();
    }),
    route('GET', '/skus/:id/favorite', ({ params }) => json(200, { favorites: favorites.filter((f) => f.sku_id === Number(params.id)) })),
    route('GET', '/categories/:id/favorites', ({ url, params }) => {
      const ids = favorites.filter((f) => catalog.sku(f.sku_id)?.category_id === Number(params.id));
      return paginate(url, 'favorites', ids);
    }),
    route('GET', '/user', () => json(200, { user })),
    route('PATCH', '/user', async ({ request }) => {
      const body = await readJsonBody(request);
      const fields = (body.user ?? body) as Record<string, unknown>;
      if (fields.sex !== undefined) {
        if (fields.sex !== null && fields.sex !== 'male' && fields.sex !== 'female') fail(400, 'InvalidParameter', 'sex must be male or female');
        user.sex = fields.sex as string | null;
      }
      if (fields.birthyear !== undefined) {
        if (fields.birthyear !== null && !Number.isInteger(fields.birthyear)) fail(400, 'InvalidParameter', 'birthyear must be an integer');
        user.birthyear = fields.birthyear as number | null;
      }
      return json(200, { user });
    }),
    route('GET', '/user/avatars', () => json(200, { avatars: [1, 2, 3].map((n) => `https://www.marketplace.test/images/avatars/preset-${n}.png`) })),
    route('GET', '/user/addresses', () => json(200, { addresses })),
    route('GET', '/user/addresses/new', () =>
      json(200, {
        address_form: {
          required: ['label', 'first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip', 'region_id'],
          optional: ['phone', 'mobile'],
          regions: { Attica: 1, 'Central Macedonia': 2, Crete: 3 },
        },
      }),
    ),
    route('POST', '/user/addresses', async ({ request }) => {
      const body = await readJsonBody(request);
      const fields = (body.address ?? body) as Record<string, unknown>;
      const missing = ['label', 'first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip', 'region_id'].filter(
        (f) => fields[f] === undefined || fields[f] === '',
      );
      if (missing.length) fail(422, 'InvalidAddress', ...missing.map((f) => `${f} can't be blank`));
      const { region_id: _, ...rest } = fields;
      const created = { id: nextAddressId++, ...rest, region: 'Attica', phone: fields.phone ?? null, mobile: fields.mobile ?? null, lng: null, lat: null };
      addresses.push(created);
      return json(201, { address: created });
    }),
    route('PUT', '/user/addresses/:id', async ({ request, params }) => {
      const address = addresses.find((a) => a.id === Number(params.id)) ?? notFound('Address', params.id);
      const body = await readJsonBody(request);
      Object.assign(address, (body.address ?? body) as Record<string, unknown>, { id: address.id });
      return json(200, { address });
    }),
    route('DELETE', '/user/addresses/:id', ({ params }) => {
      const index = addresses.findIndex((a) => a.id === Number(params.id));
      if (index < 0) notFound('Address', params.id);
      addresses.splice(index, 1);
      return noContent();
    }),
    route('GET', '/user/saved_orders', ({ url }) => paginate(url, 'saved_orders', savedOrders)),
    route('DELETE', '/user/logout', () => {
      loggedOut = true;
      return noContent();
    }),
    route('GET', '/notifications', ({ url }) => paginate(url, 'notifications', notifications)),
    route('GET', '/notifications/:id', ({ params }) =>
      json(200, { notification: notifications.find((n) => n.id === Number(params.id)) ?? notFound('Notification', params.id) }),
    ),
    route('POST', '/notifications/view', async ({ request }) => {
      const ids = (await readJsonBody(request)).ids;
      if (!Array.isArray(ids) || !ids.every(Number.isInteger)) fail(400, 'InvalidParameter', 'ids must be an array of integers');
      for (const n of notifications) if ((ids as number[]).includes(n.id)) n.is_viewed = true;
      return noContent();
    }),
  ];

  const kit = {
    favorites: () => copy(favorites),
    favoriteLists: () => copy(lists),
    notifications: () => copy(notifications),
    /** Undoes a `DELETE /user/logout` (the account token works again). */
    logIn(): void {
      loggedOut = false;
    },
  };
  return { routes, kit, loggedOut: () => loggedOut };
}

export type MockAccount = ReturnType<typeof createAccount>['kit'];
