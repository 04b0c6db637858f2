/**
 * Type-level tests, compiled by `tsc --noEmit -p .` (never run). Each `@ts-expect-error`
 * marks a mistake the types must catch: a misspelled known parameter, or a result field
 * that does not exist. Without the directive, each of those lines fails to compile.
 * Result fields are used, not only read: answer types keep unknown fields as `unknown`
 * (loose objects), so a misspelled field is caught where its value is used.
 */
import type { MarketplaceClient, Page, PagePromise } from 'emporio';
import type { NewOrderEvent, OrderUpdatedEvent, ReturnEvent, UnknownWebhookEvent, WebhookEvent } from 'emporio/webhooks';
import { isReturnEvent } from 'emporio/webhooks';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_value?: T): void {}

export async function catalogTypes(client: MarketplaceClient): Promise<void> {
  // Misspelled parameter names.
  // @ts-expect-error filter_id is a typo of filter_ids
  client.catalog.categories.skus(40, { filter_id: [1] });
  // @ts-expect-error orderby is a typo of order_by
  client.catalog.manufacturers.skus(28, { orderby: 'price' });
  // @ts-expect-error includes is a typo of include
  await client.catalog.categories.specifications(40, { includes: 'group' });
  // @ts-expect-error embeds is a typo of embed
  await client.catalog.shops.locations(670, { embeds: 'address' });
  // @ts-expect-error pre is a typo of per
  client.catalog.categories.list({ pre: 50 });
  // @ts-expect-error shopuid is a typo of shop_uid
  await client.catalog.shops.searchProducts(670, { shopuid: '062276' });
  // @ts-expect-error latitude is not a parameter (lat, lng)
  await client.catalog.locations.find({ latitude: '37.9', lng: '23.7' });

  // Wrong parameter values.
  // @ts-expect-error shop_uid is a string (leading zeros), not a number
  await client.catalog.shops.searchProducts(670, { shop_uid: 62276 });
  // @ts-expect-error order_dir is asc or desc
  client.catalog.categories.skus(40, { order_dir: 'up' });
  // @ts-expect-error manufacturer skus order by price or popularity only
  client.catalog.manufacturers.skus(28, { order_by: 'rating' });

  // Result fields.
  const sku = await client.catalog.skus.get(1);
  assertType<Equal<typeof sku.id, number>>();
  sku.price_min?.toFixed(2);
  // @ts-expect-error a SKU has price_min and price_max, no price
  sku.price.toFixed(2);

  const page = await client.catalog.categories.skus(40, { include_meta: 'available_filters' });
  page.meta?.available_filters?.distances?.[0]?.label;
  page.meta?.order_by_methods;
  // @ts-expect-error the meta has ordered_by, not order_by
  page.meta?.order_by.toUpperCase();
  // @ts-expect-error items are SKUs: no shop_uid
  page.items[0]?.shop_uid.padStart(6, '0');

  const search: PagePromise<{ id: number }, unknown> = client.catalog.search('iphone');
  void search;
  const results = await client.catalog.search('iphone');
  results.meta?.strong_matches?.sku?.display_name;
  // @ts-expect-error search meta has alternatives, not suggestions
  results.meta?.suggestions.length;

  const product = await client.catalog.products.get(1);
  product.meta?.personalization?.location?.address_id;
  // @ts-expect-error products.get resolves the wire object: the product is under .product
  product.shop_uid.trim();

  const specs = await client.catalog.skus.specifications(1);
  specs.meta?.full_description;

  const flag = await client.catalog.skus.flagReview(1, 2, { reason: 'spam' });
  // @ts-expect-error undefined when the service answered 201 without a body
  flag.flaggable_type;
  flag?.flaggable_type;
  // @ts-expect-error the flag answer is a bare object, no root key
  flag?.flag.reason;

  const reviews: Page<{ id: number }, unknown> = await client.catalog.skus.reviews(1, { include_meta: ['sku_rating_breakdown'] });
  void reviews;
  // @ts-expect-error include_meta of reviews is sku_reviews_aggregation or sku_rating_breakdown
  client.catalog.skus.reviews(1, { include_meta: 'available_filters' });
}

export async function accountTypes(client: MarketplaceClient): Promise<void> {
  // @ts-expect-error sku_id is required
  await client.account.favorites.create({ favorite_list_id: 3 });
  // @ts-expect-error skuId is a typo of sku_id
  await client.account.favorites.create({ skuId: 1 });
  // @ts-expect-error ownd is a typo of owned
  client.account.favorites.list({ ownd: true });
  // @ts-expect-error region is the answer's name; a create takes region_id
  await client.account.addresses.create({ label: 'a', first_name: 'a', last_name: 'b', street_name: 's', street_number: '1', city: 'c', zip: 'z', region: 'Attica' });

  const favorite = await client.account.favorites.get(1);
  favorite.have_it;
  // @ts-expect-error a favorite has no name
  favorite.name.trim();

  const nothing = await client.account.favorites.delete(1);
  assertType<Equal<typeof nothing, void>>();

  const user = await client.account.user.get();
  user.stats?.received_votes;
  // @ts-expect-error the user has username, not user_name
  user.user_name.trim();
}

export async function legacyTypes(client: MarketplaceClient): Promise<void> {
  // @ts-expect-error apikey is a typo of api_key
  await client.legacyV2.authenticate({ apikey: 'k' });
  // @ts-expect-error filter_ids is the v3 name; legacy list takes filter_id
  await client.legacyV2.list(40, { filter_ids: [1] });
  const session = await client.legacyV2.authenticate({ api_key: 'k' });
  session.access_token_type;
  // @ts-expect-error the session never exposes the token
  session.access_token;
  // @ts-expect-error a SKU lookup needs shop_id with sku, or pn, or barcode
  await client.legacyV2.lookupSku({ ean: '5202888271014' });
}

/**
 * Webhook events: the documented narrowing pattern (`WebhookEvent` in src/schemas/webhook.ts).
 * The unknown member's `event_type` is a plain `string`, so checking `event_type` alone
 * does not narrow; ruling out unknown events first (`'raw' in event`) does.
 */
export function webhookTypes(event: WebhookEvent): void {
  // Without the 'raw' check, a known event_type still leaves the unknown member in.
  if (event.event_type === 'new_order') {
    // @ts-expect-error the unknown member's order is optional: not narrowed yet
    event.order.code.trim();
  }

  if ('raw' in event) {
    assertType<Equal<typeof event, UnknownWebhookEvent>>();
    return;
  }
  assertType<Equal<typeof event, NewOrderEvent | OrderUpdatedEvent | ReturnEvent>>();
  // Every event reads `order?.code`; a return event's is undefined.
  assertType<Equal<typeof event.order, NewOrderEvent['order'] | undefined>>();
  if (isReturnEvent(event)) {
    assertType<Equal<typeof event, ReturnEvent>>();
    event.return.return_code.trim();
    event.changes?.courier_tracking_ids?.new?.map((id) => id.trim());
    // @ts-expect-error changes members are { old, new }: there is no `value`
    event.changes?.state?.value;
  } else {
    assertType<Equal<typeof event, NewOrderEvent | OrderUpdatedEvent>>();
  }

  if (event.event_type === 'new_order') {
    assertType<Equal<typeof event, NewOrderEvent>>();
    assertType<Equal<typeof event.order.code, string>>();
    event.order.code.trim();
    // A new order may carry `changes` too (document 1 does not expect it; kept if sent), so
    // `event.changes` is no error here: the narrowing shows in the type, not in that member.
    // @ts-expect-error narrowed to a new order: it is not an order_updated event
    const updated: OrderUpdatedEvent = event;
    void updated;
  }

  switch (event.event_type) {
    case 'order_updated': {
      assertType<Equal<typeof event, OrderUpdatedEvent>>();
      const state: string | undefined = event.changes?.state?.new ?? undefined;
      void state;
      event.changes?.courier_tracking_codes?.new?.map((code) => code.trim());
      // @ts-expect-error changes members are { old, new }: there is no `value`
      event.changes?.state?.value;
      break;
    }
    case 'new_order':
      event.order.line_items?.[0]?.quantity?.toFixed(0);
      break;
    case 'merchant_return_created':
    case 'merchant_return_updated':
      assertType<Equal<typeof event, ReturnEvent>>();
      event.return.review_options?.[0]?.option?.trim();
      break;
    default:
      // Every known type handled: nothing is left.
      assertType<Equal<typeof event, never>>();
  }
}
