/**
 * `mockDeliveryOptions`: the handler options that accept the mock marketplace's own deliveries
 * (loopback besides the published ranges, and the URL secret registered with the mock), against
 * a real loopback receiver; and the default check's refusal of them names it.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { createMockMarketplace, type MockMarketplace, mockDeliveryOptions } from 'emporio/testing';
import { createWebhookHandler, toNodeHandler, type WebhookErrorInfo, type WebhookEvent, WEBHOOK_SOURCE_RANGES } from 'emporio/webhooks';
import { listen } from '../helpers/loopback.js';

const mocks: MockMarketplace[] = [];
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.close();
});

async function mockDelivering(options: Parameters<typeof createWebhookHandler>[0], path: string) {
  const mock = createMockMarketplace({ webhookIntervalMs: 5, webhookMaxAttempts: 1 });
  mocks.push(mock);
  const receiver = await listen(toNodeHandler(createWebhookHandler(options)));
  mock.webhooks.register(`${receiver.url}${path}`);
  mock.orders.create();
  await mock.webhooks.idle();
  return mock.webhooks.deliveries.map((delivery) => delivery.status);
}

it('accepts the mock’s deliveries from loopback at the secret URL, and keeps the published ranges', async () => {
  const secret = randomUUID();
  const options = mockDeliveryOptions(secret);
  expect(options.urlSecret).toBe(secret);
  expect(options.allowedRanges).toEqual(expect.arrayContaining([...WEBHOOK_SOURCE_RANGES, '127.0.0.0/8', '::1/128']));

  const events: WebhookEvent[] = [];
  expect(await mockDelivering({ ...options, onEvent: (event) => void events.push(event) }, `/webhooks/${secret}`)).toEqual([200]);
  expect(events.map((event) => event.event_type)).toEqual(['new_order']);
  // The secret is still checked: the mock at another URL is refused.
  const elsewhere = await mockDelivering({ ...mockDeliveryOptions(secret), onEvent: () => {}, onError: () => {} }, '/webhooks/not-the-secret-0000000');
  expect(elsewhere).toEqual([404]);
  // false: a registered URL without a secret.
  expect(await mockDelivering({ ...mockDeliveryOptions(false), onEvent: () => {} }, '/webhooks')).toEqual([200]);
});

it('the default source check refuses the mock’s loopback delivery, and its error names mockDeliveryOptions', async () => {
  const secret = randomUUID();
  const refusals: { error: Error; info: WebhookErrorInfo }[] = [];
  const onError = (error: Error, info: WebhookErrorInfo) => void refusals.push({ error, info });
  expect(await mockDelivering({ urlSecret: secret, onEvent: () => {}, onError }, `/webhooks/${secret}`)).toEqual([403]);
  expect(refusals[0]?.info.reason).toBe('source_address');
  expect(refusals[0]?.error.message).toMatch(/source address (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1) is not in allowedRanges/);
  expect(refusals[0]?.error.message).toContain('see mockDeliveryOptions in emporio/testing');

  // Ranges the caller chose are taken as meant: no hint.
  refusals.length = 0;
  expect(await mockDelivering({ urlSecret: secret, allowedRanges: ['10.0.0.0/8'], onEvent: () => {}, onError }, `/webhooks/${secret}`)).toEqual([403]);
  expect(refusals[0]?.error.message).not.toContain('mockDeliveryOptions');
});
