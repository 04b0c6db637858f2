import type { ProductUpdate } from '../schemas/products.js';
import { FeedValidationError } from './errors.js';
import { checkProduct, type IssueLists } from './rules.js';
import type { FeedProduct } from './types.js';

/**
 * The Products API update for a feed product (for `client.products.updateMany`): its price in
 * integer cents (`23.9` → `2390`, computed from the decimal digits, never by multiplying a
 * float), its quantity, and `enabled: true` (every availability the feed takes means the
 * product can be bought, if not at once). Each size variation likewise; a variation without a
 * price of its own takes the product's. A product the feed would refuse is a `FeedValidationError`.
 */
export function toProductUpdate(product: FeedProduct): ProductUpdate {
  const issues: IssueLists = { errors: [], warnings: [] };
  const written = checkProduct(product, 'write', issues, 0);
  if (written === undefined) throw new FeedValidationError(issues.errors);
  const price = cents(written.price);
  const update: ProductUpdate = { product_id: written.id, quantity: Number(written.quantity), enabled: true, price };
  if (written.variations.length > 0) {
    update.variations = written.variations.map((variation) => ({
      variation_id: variation.variation_id,
      quantity: Number(variation.quantity),
      enabled: true,
      price: variation.price === undefined ? price : cents(variation.price),
    }));
  }
  return update;
}

/** `'23.90'` (the feed's two-decimal form) as `2390`. */
function cents(euros: string): number {
  return Number(euros.replace('.', ''));
}
