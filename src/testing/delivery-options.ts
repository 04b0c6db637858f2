import type { UrlSecretOption } from '../webhooks/url-secret.js';
import { WEBHOOK_SOURCE_RANGES } from '../webhooks/ip.js';

/** This host: where the mock marketplace's deliveries come from. */
const LOOPBACK_RANGES = ['127.0.0.0/8', '::1/128'];

/** What {@link mockDeliveryOptions} gives: the two `createWebhookHandler` options it sets. */
export interface MockDeliveryOptions {
  allowedRanges: readonly string[];
  urlSecret: UrlSecretOption | false;
}

/**
 * The `createWebhookHandler` options that accept the mock marketplace's deliveries, for tests:
 * the service's published source ranges plus loopback (the mock delivers from 127.0.0.1 or ::1,
 * which the default check refuses), and the URL secret of the URL you registered with the mock
 * (`mock.webhooks.register(\`${receiver}/webhooks/${secret}\`)`), or `false` for a URL without one.
 *
 *   const handler = createWebhookHandler({ ...mockDeliveryOptions(secret), onEvent });
 */
export function mockDeliveryOptions(urlSecret: UrlSecretOption | false): MockDeliveryOptions {
  return { allowedRanges: [...WEBHOOK_SOURCE_RANGES, ...LOOPBACK_RANGES], urlSecret };
}
