import { describe, expect, it } from 'vitest';
import {
  AddressAnswer,
  AddressesPage,
  AddressFormAnswer,
  AvatarsAnswer,
  FavoriteAnswer,
  FavoriteListAnswer,
  FavoriteListsPage,
  FavoritesPage,
  NOTIFICATION_ETYPES,
  NotificationAnswer,
  NotificationsPage,
  SavedOrdersPage,
  UserAnswer,
} from '../../src/schemas/account.js';
import {
  AddressCreate,
  AddressUpdate,
  FavoriteCreate,
  FavoriteListCreate,
  FavoritesParams,
  FavoriteUpdate,
  NotificationIds,
  PersonalizationUpdate,
  UserUpdate,
} from '../../src/schemas/query.js';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
type Parser = { safeParse: (v: unknown) => { success: boolean; data?: unknown; error?: { issues: Issue[] } } };
type Issue = { path: PropertyKey[]; message: string };
const issuesOf = (schema: Parser, value: unknown) =>
  schema.safeParse(value).error?.issues.map(({ path, message }) => ({ path, message })) ?? [];
const pathsOf = (schema: Parser, value: unknown) => issuesOf(schema, value).map(({ path }) => path);

const pagination = { total_results: 3, total_pages: 1, page: 1, per: 25 };
const favorite = {
  id: 3189580,
  user_id: 334941,
  sku_id: 4763156,
  have_it: null,
  user_notes: null,
  created_at: '2016-01-26T14:36:43+02:00',
  updated_at: '2016-01-26T14:36:43+02:00',
  get_absolute_threshold: '250.0',
};
const address = {
  id: 25522,
  label: 'Home',
  first_name: 'Maria',
  last_name: 'Papadopoulou',
  street_name: 'Alekou Panagouli',
  street_number: '91',
  city: 'Nea Ionia',
  zip: '14234',
  region: 'Attica',
  phone: null,
  mobile: '6900000000',
  lng: '23.760006',
  lat: '38.043322',
};
const user = {
  id: 334941,
  username: 'maria',
  type: 'marketplace',
  sex: 'female',
  avatar: 'https://img.example/avatars/1.png',
  created_at: '2012-05-01T10:00:00+03:00',
  email: 'maria@example.org',
  birthyear: 1985,
  mobile: null,
  stats: { sku_review_count: 3, shop_review_count: 1, sku_comment_count: 0, received_votes: 12 },
  email_notifications: [
    { field: 'notifications', label: 'Notifications', description: 'Price drops', enabled: true },
    { field: 'smart_cart_email', label: 'Cart', description: 'Cart reminders', enabled: false },
  ],
  resend_verification_email: false,
  loyalty_tier_level: 2,
  total_acquired_points: 150,
  is_staff: false,
};
const priceDrop = {
  id: 77,
  etype: 'price_drop',
  eventable_id: 3783654,
  eventable_type: 'Sku',
  eventable_name: 'Apple iPhone 5S 16GB',
  eventable_url: 'https://www.marketplace.example/s/3783654',
  event_text: null,
  snapshot: { price_min: 239.56, latest_price: 259, change_rate: -7.5, from_threshold: false },
  is_viewed: false,
  aggregated: false,
  created_at: '2018-01-31T13:00:00+02:00',
  updated_at: '2018-01-31T13:00:00+02:00',
  sku: {
    id: 3783654,
    category_id: 40,
    display_name: 'Apple iPhone 5S 16GB',
    images: { main: 'https://img.example/m.jpg', alternatives: [] },
    click_url: null,
    virtual: false,
    future: false,
    first_product_shop_info: null,
  },
  category_name: 'Mobile phones',
};

describe('account answers', () => {
  const samples: [string, Parser, unknown][] = [
    [
      'GET /favorite_lists',
      FavoriteListsPage,
      {
        favorite_lists: [
          { id: 12, name: 'Gifts', category_id: null, type: 'custom' },
          { id: -40, name: 'Mobile phones', category_id: 40, type: 'auto' },
        ],
        meta: { pagination },
      },
    ],
    ['POST /favorite_lists', FavoriteListAnswer, { favorite_list: { id: 13, name: 'Later', category_id: null, type: 'custom' } }],
    ['GET /favorites', FavoritesPage, { favorites: [favorite], meta: { pagination } }],
    ['GET /favorites/:id', FavoriteAnswer, { favorite }],
    ['GET /user', UserAnswer, { user }],
    ['GET /user/avatars', AvatarsAnswer, { avatars: ['https://img.example/avatars/1.png'] }],
    ['GET /user/addresses', AddressesPage, { addresses: [address] }],
    ['POST /user/addresses', AddressAnswer, { address }],
    [
      'GET /user/addresses/new',
      AddressFormAnswer,
      {
        address_form: {
          required: ['label', 'first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip', 'region_id'],
          optional: ['phone', 'mobile'],
          regions: { Attica: 1, Crete: 57 },
        },
      },
    ],
    [
      'GET /user/saved_orders',
      SavedOrdersPage,
      {
        saved_orders: [
          {
            date: '2018-01-31T13:00:00+02:00',
            products_cost: 239.56,
            shipping_cost: 0,
            total_cost: 239.56,
            shop_id: 670,
            order_code: '180131-1234567',
            line_items: [
              { name: 'Phone', quantity: 1, price: 239.56, image: null, sku_id: 3783654, product_id: 13888148, category_id: null },
            ],
          },
        ],
        meta: { pagination },
      },
    ],
    ['GET /notifications', NotificationsPage, { notifications: [priceDrop], meta: { pagination } }],
    ['GET /notifications/:id', NotificationAnswer, { notification: priceDrop }],
  ];

  it.each(samples)('%s parses with every value intact', (_endpoint, schema, body) => {
    const result = schema.safeParse(clone(body));
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    expect(result.data).toStrictEqual(body);
  });

  it('keeps notifications of event types and snapshots the spec does not show', () => {
    const review = {
      id: 78,
      etype: 'sku_review',
      review_rating: 5,
      review_text: 'Great',
      author: { id: 1, username: 'nikos', avatar: null },
      snapshot: { reviews_count: 2 },
    };
    const later = { id: 79, etype: 'a_future_event', snapshot: { something: [1, 2] } };
    const body = { notifications: [review, later] };
    expect(NotificationsPage.parse(clone(body))).toStrictEqual(body);
    expect(NOTIFICATION_ETYPES).toContain('sku_review_approve_after_update');
  });

  it('accepts null or absent for every field but the id', () => {
    expect(UserAnswer.parse({ user: { id: 1, stats: null, email_notifications: null } }).user.stats).toBeNull();
    expect(FavoriteAnswer.parse({ favorite: { id: 1 } })).toEqual({ favorite: { id: 1 } });
  });

  it('refuses broken shapes', () => {
    expect(pathsOf(UserAnswer, { id: 1 })).toContainEqual(['user']);
    expect(pathsOf(UserAnswer, { user: { id: 1, stats: 'many' } })).toContainEqual(['user', 'stats']);
    expect(pathsOf(FavoritesPage, { favorites: [{ sku_id: 1 }] })).toContainEqual(['favorites', 0, 'id']);
    expect(pathsOf(AddressFormAnswer, { address_form: { regions: ['Attica'] } })).toContainEqual(['address_form', 'regions']);
    expect(pathsOf(NotificationAnswer, { notification: { id: 1, snapshot: 'x' } })).toContainEqual(['notification', 'snapshot']);
  });
});

describe('account request bodies', () => {
  const newAddress = {
    label: 'Home',
    first_name: 'Maria',
    last_name: 'Papadopoulou',
    street_name: 'Alekou Panagouli',
    street_number: '91',
    city: 'Nea Ionia',
    zip: '14234',
    region_id: 1,
  };

  it('favorites need an integer sku_id', () => {
    expect(FavoriteCreate.parse({ sku_id: 3783654 })).toEqual({ sku_id: 3783654 });
    expect(FavoriteCreate.parse({ sku_id: 1, favorite_list_id: -40, new_list_name: 'Gifts' })).toEqual({
      sku_id: 1,
      favorite_list_id: -40,
      new_list_name: 'Gifts',
    });
    expect(pathsOf(FavoriteCreate, { favorite_list_id: 12 })).toEqual([['sku_id']]);
    expect(pathsOf(FavoriteCreate, { sku_id: '3783654' })).toEqual([['sku_id']]);
    expect(pathsOf(FavoriteCreate, { sku_id: 1.5 })).toEqual([['sku_id']]);
    expect(issuesOf(FavoriteCreate, { sku_id: 1, list_id: 2 })).toEqual([{ path: [], message: 'unknown field: list_id' }]);
    expect(FavoriteUpdate.parse({ have_it: true })).toEqual({ have_it: true });
    expect(pathsOf(FavoriteUpdate, { have_it: 'yes' })).toEqual([['have_it']]);
    expect(pathsOf(FavoriteListCreate, { name: '' })).toEqual([['name']]);
    expect(pathsOf(FavoriteListCreate, {})).toEqual([['name']]);
  });

  it('an address needs its required fields and a region_id from 1 to 57', () => {
    expect(AddressCreate.parse(newAddress)).toEqual(newAddress);
    expect(AddressCreate.parse({ ...newAddress, region_id: 57, phone: '2100000000' }).region_id).toBe(57);
    for (const region_id of [0, 58]) {
      expect(issuesOf(AddressCreate, { ...newAddress, region_id })).toEqual([
        { path: ['region_id'], message: 'must be a region id from 1 to 57' },
      ]);
    }
    expect(pathsOf(AddressCreate, { ...newAddress, region_id: 'Attica' })).toEqual([['region_id']]);
    const { city: _city, zip: _zip, ...missing } = newAddress;
    expect(pathsOf(AddressCreate, missing)).toEqual([['city'], ['zip']]);
  });

  it('an address update takes any subset, and nothing unknown', () => {
    expect(AddressUpdate.parse({ city: 'Athens' })).toEqual({ city: 'Athens' });
    expect(AddressUpdate.parse({})).toEqual({});
    expect(pathsOf(AddressUpdate, { region_id: 58 })).toEqual([['region_id']]);
    // @ts-expect-error: the field is region_id
    const typo: AddressUpdate = { region: 'Attica' };
    expect(issuesOf(AddressUpdate, typo)).toEqual([{ path: [], message: 'unknown field: region' }]);
  });

  it('a profile update takes base64 without the data-URI preamble', () => {
    const update = { sex: 'female', birthyear: 1985, avatar: 'iVBORw0KGgo=' } as const;
    expect(UserUpdate.parse(update)).toEqual(update);
    expect(UserUpdate.parse({ avatar_preset: 'cat.png' })).toEqual({ avatar_preset: 'cat.png' });
    expect(issuesOf(UserUpdate, { avatar: 'data:image/png;base64,iVBORw0KGgo=' })).toContainEqual({
      path: ['avatar'],
      message: 'must be bare base64, without the data-URI preamble',
    });
    expect(pathsOf(UserUpdate, { avatar: 'not base64!' })).toEqual([['avatar']]);
    expect(pathsOf(UserUpdate, { sex: 'other' })).toEqual([['sex']]);
    expect(pathsOf(UserUpdate, { birthyear: '1985' })).toEqual([['birthyear']]);
  });

  it('a personalization update names a user address by its integer id', () => {
    expect(PersonalizationUpdate.parse({ location: { address_id: 25522 } })).toEqual({ location: { address_id: 25522 } });
    expect(pathsOf(PersonalizationUpdate, { location: { address_id: '25522' } })).toEqual([['location', 'address_id']]);
    expect(pathsOf(PersonalizationUpdate, {})).toEqual([['location']]);
  });

  it('marking notifications viewed needs at least one integer id', () => {
    expect(NotificationIds.parse([1, 2])).toEqual([1, 2]);
    expect(pathsOf(NotificationIds, [])).toEqual([[]]);
    expect(pathsOf(NotificationIds, [1, 'x'])).toEqual([[1]]);
  });

  it('favorites listing parameters', () => {
    expect(FavoritesParams.parse({ owned: true, order_dir: 'asc', per: 10 })).toEqual({ owned: true, order_dir: 'asc', per: 10 });
    expect(pathsOf(FavoritesParams, { owned: 'true' })).toEqual([['owned']]);
  });
});
