/** The webhook handler with a real Keyv instance as its dedupe store (`keyv.set(key, value, ttl)`). */
import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler, type WebhookEvent } from 'emporio/webhooks';
import { newOrderBody } from './events.js';
import { recordingLogger } from '../helpers/server.js';

/** The handlers' warnings (one line per delivery not answered 200): kept for the tests that assert them, off the console. */
const { lines: warnings, logger } = recordingLogger();

const SERVICE = '185.6.76.10'; // inside the documented 185.6.76.0/22

function post(body: string): Request {
  return new Request('https://shop.example/webhooks/orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'marketplace OrderNotifier v1' },
    body,
  });
}

const body = JSON.stringify(newOrderBody());

describe('createWebhookHandler with a Keyv store', () => {
  it('deduplicates a redelivery', async () => {
    const store = new Map<string, unknown>();
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler({ urlSecret: false, logger, dedupe: new Keyv({ store }), onEvent: (event) => void events.push(event) });
    const first = await handler(post(body), { remoteAddress: SERVICE });
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('ok');
    const again = await handler(post(body), { remoteAddress: SERVICE });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('already handled');
    expect(events).toHaveLength(1);
    // One entry, marked handled, with the 30-minute default TTL.
    expect(store.size).toBe(1);
    const [[key, stored]] = [...store] as [[string, string]];
    expect(key).toMatch(/^keyv:emporio:webhook:[0-9a-f]{64}$/); // Keyv adds its namespace
    const entry = JSON.parse(stored) as { value: unknown; expires: number };
    expect(entry.value).toBe('handled');
    expect(entry.expires - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(entry.expires - Date.now()).toBeLessThanOrEqual(30 * 60_000);
  });

  it('a failing onEvent (500) leaves the event un-handled, so the redelivery is handled', async () => {
    let calls = 0;
    const handler = createWebhookHandler({
      urlSecret: false, logger,
      dedupe: new Keyv(),
      onEvent: () => {
        calls++;
        if (calls === 1) throw new Error('database down');
      },
    });
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(500);
    expect(warnings.at(-1)).toContain('emporio: webhook delivery answered 500 (handler_failed): database down');
    const retry = await handler(post(body), { remoteAddress: SERVICE });
    expect(retry.status).toBe(200);
    expect(await retry.text()).toBe('ok');
    expect(calls).toBe(2);
    const again = await handler(post(body), { remoteAddress: SERVICE });
    expect(await again.text()).toBe('already handled');
    expect(calls).toBe(2);
  });
});
