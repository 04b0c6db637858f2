/**
 * The mock catalog's data: a seeded, deterministic category tree (root 1 → families → leaves), SKUs
 * with products and reviews, shops with reviews and locations, manufacturers, and the lookups that
 * answer 404 as the service does. The routes over it are in catalog.ts and catalog-reviews.ts.
 */
import type { CoreContext } from './context.js';
import { createRandom, type Random } from './random.js';
import { cents, fail, timestamp } from './wire.js';

export type Json = Record<string, unknown>;

export interface MockCategory extends Json {
  id: number;
  name: string;
  parent_id: number;
  children_count: number;
  family_id: number;
}
export interface MockSku extends Json {
  id: number;
  name: string;
  category_id: number;
  manufacturer_id: number;
  price_min: number;
}

const FAMILIES = [
  { id: 2, name: 'Technology', leaves: [[40, 'Mobile phones', 120], [41, 'Laptops', 30], [42, 'Headphones', 26]] },
  { id: 3, name: 'Home & Garden', leaves: [[50, 'Coffee machines', 40], [51, 'Vacuum cleaners', 12]] },
  { id: 4, name: 'Fashion', leaves: [[60, 'Sneakers', 25], [61, 'Watches', 0]] },
] as const;
const MANUFACTURERS = ['Apple', 'Samsung', 'Xiaomi', 'Sony', 'Bosch', 'Philips', 'Nike', 'Lenovo'];
const SHOPS = ['Kotsovolos Online', 'e-shop Athens', 'Plaisio Store', 'You Tech', 'Public Market'];

export function createCatalogData(core: CoreContext) {
  const random: Random = createRandom(core.seed ^ 0x5eed);
  const site = 'https://www.marketplace.test';
  const categories = new Map<number, MockCategory>();
  const skusByCategory = new Map<number, MockSku[]>();
  const skus = new Map<number, MockSku>();
  const products = new Map<number, Json>();
  const productsBySku = new Map<number, number[]>();
  const reviewsBySku = new Map<number, Json[]>();
  const manufacturers = MANUFACTURERS.map((name, i) => ({ id: 101 + i, name, image_url: `${site}/images/manufacturers/${101 + i}.png` }));
  let nextSkuId = 3_000_001;
  let nextProductId = 14_000_001;
  let nextReviewId = 200_001;
  /** Bumped by every added SKU: sorted listings are cached until then (benchmarks page through 10,000). */
  let version = 0;

  const category = (id: number, name: string, parentId: number, familyId: number, path: number[], leafCount: number): MockCategory => ({
    id,
    name,
    children_count: leafCount,
    image_url: `${site}/images/categories/${id}.png`,
    parent_id: parentId,
    fashion: familyId === 4,
    layout_mode: familyId === 4 ? 'tiles' : 'list',
    web_uri: `${site}/c/${id}/${name.toLowerCase().replace(/\W+/g, '-')}.html`,
    code: name.toLowerCase().replace(/\W+/g, '_'),
    path: path.join(','),
    show_specifications: true,
    manufacturer_title: 'Manufacturer',
    family_id: familyId,
  });

  const shops = SHOPS.map((name, i) => {
    const id = 1001 + i;
    return {
      id,
      name,
      link: `https://shop${id}.example`,
      phone: `21000000${i}`,
      image_url: `${site}/images/shops/${id}.png`,
      thumbshot_url: `${site}/images/shops/${id}-thumb.png`,
      web_uri: `${site}/m/${id}`,
      reviews_count: 12,
      latest_reviews_count: 10,
      review_score: Math.round((3.5 + random.next() * 1.5) * 10) / 10,
      payment_methods: { credit_card: true, paypal: i % 2 === 0, bank: true, spot_cash: i !== 3, installments: '12' },
      shipping: { free: i === 0, free_from: i === 0 ? null : 50, free_from_info: null, min_price: '2.90', shipping_cost_enabled: true },
      extra_info: { time_on_platform: `${i + 2} years`, orders_per_week: '100+' },
      top_positive_reasons: ['Fast delivery', 'Good packaging'],
    };
  });
  const shopReviews = new Map(
    shops.map((shop) => [
      shop.id,
      Array.from({ length: 12 }, (_, i) => {
        const negative = i % 4 === 3;
        return {
          id: shop.id * 100 + i,
          user_id: 50_000 + i,
          review: negative ? 'Late delivery.' : 'Great shop, fast delivery.',
          rating: negative ? 2 : 5 - (i % 2),
          shop_reply: negative ? 'Sorry, we are working on it.' : null,
          created_at: timestamp(Date.UTC(2026, 0, 1 + i)),
          negative,
          reasons: negative ? ['Late delivery'] : ['Fast delivery'],
        };
      }),
    ]),
  );
  const locations = new Map(
    shops.map((shop, i) => [
      shop.id,
      [0, 1].map((n) => ({
        id: shop.id * 10 + n,
        headquarter: n === 0,
        pickup_point: true,
        store: true,
        phones: [`21000001${i}${n}`],
        full_address: `Ermou ${10 + n}, 10563 Athens`,
        format: 'structured',
        lat: (37.975 + i * 0.01 + n * 0.001).toFixed(6),
        lng: (23.735 + i * 0.01).toFixed(6),
        info: 'Mon-Fri 9:00-21:00',
        address: { id: shop.id * 10 + n, street_number: String(10 + n), street: 'Ermou', postcode: '10563', city: 'Athens', region: 'Attica', country: 'GR' },
      })),
    ]),
  );

  const addSku = (categoryId: number): MockSku => {
    const id = nextSkuId++;
    const manufacturer = random.pick(manufacturers);
    const leaf = categories.get(categoryId);
    const name = `${manufacturer.name} ${leaf?.name.replace(/s$/, '') ?? 'Item'} ${id % 1000}`;
    const priceMin = random.int(10, 900) + 0.99;
    // The very first SKU is the showcase: offers from every shop and a page-able set of reviews.
    const showcase = id === 3_000_001;
    const offers = showcase ? shops.length : random.int(1, 5);
    const reviews = showcase ? 7 : random.int(0, 8);
    const sku: MockSku = {
      id,
      ean: `520${String(id).padStart(10, '0')}`,
      pn: `PN-${id}`,
      name,
      display_name: name,
      category_id: categoryId,
      manufacturer_id: manufacturer.id,
      first_product_shop_info: `${shops[0]?.id}|${shops[0]?.name}|shop-${shops[0]?.id}`,
      click_url: null,
      price_max: cents(priceMin * 1.2),
      price_min: priceMin,
      reviewscore: reviews ? Math.round((3 + random.next() * 2) * 10) / 10 : 0,
      shop_count: offers,
      reviews_count: reviews,
      plain_spec_summary: `Colour: black, Weight: ${random.int(100, 3000)} g`,
      future: false,
      virtual: false,
      images: { main: `${site}/images/skus/${id}.jpg`, alternatives: [] },
      web_uri: `${site}/s/${id}.html`,
      comparable: true,
      reviewable: true,
      name_source: 'display_name',
      sizes: null,
      ecommerce_enabled: true,
      description: `${name}: a dependable choice.`,
    };
    skus.set(id, sku);
    version++;
    const list = skusByCategory.get(categoryId) ?? [];
    list.push(sku);
    skusByCategory.set(categoryId, list);
    const productIds: number[] = [];
    for (let i = 0; i < offers; i++) {
      const shop = shops[i % shops.length] as (typeof shops)[number];
      const productId = nextProductId++;
      const price = cents(priceMin * (1 + i * 0.05));
      products.set(productId, {
        id: productId,
        name: name.toUpperCase(),
        sku_id: id,
        shop_id: shop.id,
        category_id: categoryId,
        availability: 'Delivery in 1 to 3 days',
        click_url: `${site}/products/show/${productId}`,
        shop_uid: String(random.int(1, 999_999)).padStart(6, '0'),
        expenses: null,
        web_uri: `${site}/products/show/${productId}`,
        sizes: [],
        price,
        immediate_pickup: i === 0,
        blp: { shipping_cost: 0, payment_method_cost: 0, final_price: price },
      });
      productIds.push(productId);
    }
    productsBySku.set(id, productIds);
    reviewsBySku.set(
      id,
      Array.from({ length: reviews }, (_, i) => ({
        id: nextReviewId++,
        user_id: 60_000 + i,
        review: i % 3 === 2 ? 'Battery could be better.' : 'Very happy with it.',
        rating: 5 - (i % 3),
        created_at: timestamp(Date.UTC(2026, 1, 1 + i)),
        demoted: false,
        votes_count: 0,
        helpful_votes_count: 0,
        voted: false,
        flagged: false,
        helpful: false,
      })),
    );
    return sku;
  };

  // The tree: root 1 → families → leaves; then the leaves' SKUs, in a fixed order so the seed decides everything.
  categories.set(1, category(1, 'All categories', 0, 1, [1], FAMILIES.length));
  for (const family of FAMILIES) {
    categories.set(family.id, category(family.id, family.name, 1, family.id, [1, family.id], family.leaves.length));
    for (const [id, name] of family.leaves) categories.set(id, category(id, name, family.id, family.id, [1, family.id, id], 0));
  }
  for (const family of FAMILIES) {
    for (const [id, , count] of family.leaves) {
      skusByCategory.set(id, []);
      for (let i = 0; i < count; i++) addSku(id);
    }
  }

  // ---- lookups ---------------------------------------------------------------------------

  const notFound = (kind: string, id: string): never => fail(404, 'RecordNotFound', `Couldn't find ${kind} with 'id'=${id}`);
  const numericId = (raw: string | undefined, kind: string) => {
    const id = Number(raw);
    if (!Number.isInteger(id)) notFound(kind, raw ?? '');
    return id;
  };
  const findCategory = (raw?: string) => categories.get(numericId(raw, 'Category')) ?? notFound('Category', raw ?? '');
  const findSku = (raw?: string) => skus.get(numericId(raw, 'Sku')) ?? notFound('Sku', raw ?? '');
  const findShop = (raw?: string) => shops.find((s) => s.id === numericId(raw, 'Shop')) ?? notFound('Shop', raw ?? '');
  const findManufacturer = (raw?: string) =>
    manufacturers.find((m) => m.id === numericId(raw, 'Manufacturer')) ?? notFound('Manufacturer', raw ?? '');

  return {
    site,
    categories,
    skusByCategory,
    skus,
    products,
    productsBySku,
    reviewsBySku,
    manufacturers,
    shops,
    shopReviews,
    locations,
    category,
    addSku,
    /** The id of the next review written (generated and written reviews share one sequence). */
    nextReviewId: () => nextReviewId++,
    /** Bumped by every added SKU: sorted listings are cached until it changes. */
    version: () => version,
    notFound,
    numericId,
    findCategory,
    findSku,
    findShop,
    findManufacturer,
  };
}

export type CatalogData = ReturnType<typeof createCatalogData>;
