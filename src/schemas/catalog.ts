/**
 * Answer schemas of the catalog API v3 (its documentation, and the endpoints it names
 * without showing, from recorded answers). One file per area under ./catalog/.
 */
export { PageMeta } from './catalog/base.js';
export * from './catalog/books.js';
export * from './catalog/categories.js';
export * from './catalog/reviews.js';
export * from './catalog/search.js';
export * from './catalog/shops.js';
export * from './catalog/skus.js';
