/**
 * `emporio/feed`: the shop's product feed. A validating streaming writer (XML and CSV), a
 * checker with line numbers, a handler serving the feed to the service's crawler, the order
 * beacon, and the step from a feed product to a Products API update.
 */
export { EmporioError, RequestValidationError } from '../core/errors.js';
export { type BeaconItem, type BeaconOrder, type OrderBeaconOptions, orderBeacon, PAYMENT_TYPES, type PaymentType } from './beacon.js';
export { type CheckedProduct, type CheckFeedOptions, checkFeed, type FeedSource } from './check.js';
export { type CsvFeedWriterOptions, createCsvFeedWriter } from './csv-writer.js';
export { FeedValidationError } from './errors.js';
export { createFeedHandler, type FeedBody, type FeedHandler, type FeedHandlerOptions } from './handler.js';
export { type NodeFeedResponseLike, toNodeHandler } from './node.js';
export type { FeedWriter, FeedWriterOptions, NodeReadableLike, NodeWritableLike } from './output.js';
export {
  type FeedDecimal,
  type FeedIssue,
  type FeedProduct,
  type FeedReport,
  type FeedRule,
  type FeedVariation,
  PRODUCT_AVAILABILITY,
  type ProductAvailability,
  VARIATION_AVAILABILITY,
  type VariationAvailability,
} from './types.js';
export { toProductUpdate } from './update.js';
export { createFeedWriter, writeFeed } from './xml-writer.js';
