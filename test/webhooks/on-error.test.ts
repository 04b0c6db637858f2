import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookHandler, type WebhookErrorInfo, type WebhookHandlerOptions, WebhookParseError } from 'emporio/webhooks';
import { newOrderBody } from './events.js';

const SERVICE = '185.6.76.10'; // inside the documented ranges
const STRANGER = '203.0.113.9';
const SECRET = 'a0c3e1d2-5b7f-4c9e-8d6a-2f4b1e3c5d7a';
const body = JSON.stringify(newOrderBody());

const post = (payload: string, url = `https://shop.example/webhooks/${SECRET}`, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });

/** A handler whose onError calls are recorded. */
function withOnError(options: Partial<WebhookHandlerOptions> = {}) {
  const calls: { error: Error; info: WebhookErrorInfo }[] = [];
  const handler = createWebhookHandler({
    urlSecret: SECRET,
    onEvent: () => {},
    onError: (error, info) => void calls.push({ error, info }),
    ...options,
  });
  return { calls, handler };
}

afterEach(() => vi.restoreAllMocks());

describe('createWebhookHandler: onError', () => {
  it('is told of each refused delivery with its status and reason, never the secret or the body', async () => {
    const { calls, handler } = withOnError();
    const answers = [
      await handler(post(body), { remoteAddress: STRANGER }),
      await handler(post(body, 'https://shop.example/webhooks/not-the-secret-at-all-0123'), { remoteAddress: SERVICE }),
      await handler(post('{"customer": "Maria Papadopoulou", '), { remoteAddress: SERVICE }),
      await handler(post(body, undefined, { 'content-length': String(2 * 1024 * 1024) }), { remoteAddress: SERVICE }),
      await handler(new Request(`https://shop.example/webhooks/${SECRET}`), { remoteAddress: SERVICE }),
    ].map((response) => response.status);

    expect(answers).toEqual([403, 404, 400, 413, 405]);
    expect(calls.map(({ info }) => [info.status, info.reason])).toEqual([
      [403, 'source_address'],
      [404, 'url_secret'],
      [400, 'body_invalid'],
      [413, 'body_too_large'],
      [405, 'method'],
    ]);
    expect(calls[0]?.info.sourceAddress).toBe(STRANGER);
    expect(calls[0]?.error.message).toContain(STRANGER);
    expect(calls[2]?.error).toBeInstanceOf(WebhookParseError);
    const told = JSON.stringify(calls.map(({ error, info }) => [error.message, info]));
    expect(told).not.toContain(SECRET);
    expect(told).not.toContain('not-the-secret');
    expect(told).not.toContain('Papadopoulou');
  });

  it('gets what onEvent threw (500), and a time-out (500), and is not called for a 200', async () => {
    const failure = new Error('database down');
    let mode: 'throw' | 'hang' | 'ok' = 'throw';
    const { calls, handler } = withOnError({
      handlerTimeoutMs: 50,
      dedupe: false,
      onEvent: () => {
        if (mode === 'throw') throw failure;
        if (mode === 'hang') return new Promise(() => {});
      },
    });
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(500);
    mode = 'hang';
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(500);
    mode = 'ok';
    expect((await handler(post(body), { remoteAddress: SERVICE })).status).toBe(200);

    expect(calls).toHaveLength(2);
    expect(calls[0]?.error).toBe(failure);
    expect(calls[0]?.info).toEqual({ status: 500, reason: 'handler_failed', sourceAddress: SERVICE });
    expect(calls[1]?.info.reason).toBe('handler_timeout');
    expect(calls[1]?.error.message).toContain('handlerTimeoutMs');
  });

  it('is never awaited and never thrown through', async () => {
    const throwing = createWebhookHandler({
      urlSecret: false,
      onEvent: () => {},
      onError: () => {
        throw new Error('reporter broke');
      },
    });
    expect((await throwing(post(body), { remoteAddress: STRANGER })).status).toBe(403);

    const hanging = createWebhookHandler({ urlSecret: false, onEvent: () => {}, onError: () => new Promise(() => {}) as never });
    expect((await hanging(post(body), { remoteAddress: STRANGER })).status).toBe(403);

    const rejecting = createWebhookHandler({ urlSecret: false, onEvent: () => {}, onError: () => Promise.reject(new Error('later')) as never });
    expect((await rejecting(post(body), { remoteAddress: STRANGER })).status).toBe(403);
  });
});

describe('createWebhookHandler: without onError, one warning per refused delivery', () => {
  it('logger.warn hears each delivery not answered 200, without the secret or the body', async () => {
    const lines: string[] = [];
    const handler = createWebhookHandler({
      urlSecret: SECRET,
      onEvent: () => {
        throw new Error('handler bug');
      },
      dedupe: false,
      logger: { warn: (message, details) => void lines.push(`${message} ${JSON.stringify(details)}`) },
    });
    await handler(post(body), { remoteAddress: STRANGER });
    await handler(post(body, 'https://shop.example/webhooks/not-the-secret-at-all-0123'), { remoteAddress: SERVICE });
    await handler(post('{"customer": "Maria Papadopoulou"'), { remoteAddress: SERVICE });
    await handler(post(body), { remoteAddress: SERVICE });

    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('answered 403 (source_address)');
    expect(lines[0]).toContain(STRANGER);
    expect(lines[1]).toContain('answered 404 (url_secret)');
    expect(lines[2]).toContain('answered 400 (body_invalid)');
    expect(lines[3]).toContain('answered 500 (handler_failed): handler bug');
    const all = lines.join('\n');
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain('Papadopoulou');
  });

  it('defaults to console.warn', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const handler = createWebhookHandler({ urlSecret: false, onEvent: () => {} });
    await handler(post(body), { remoteAddress: '127.0.0.1' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('answered 403 (source_address): source address 127.0.0.1 is not in allowedRanges');
    // A loopback sender under the default ranges is most likely the mock marketplace in a test: the line says what accepts it.
    expect(String(warn.mock.calls[0]?.[0])).toContain('(the mock? see mockDeliveryOptions in emporio/testing)');
  });

  it('a sender-written X-Forwarded-For reaches the log as address characters only', async () => {
    const lines: string[] = [];
    const handler = createWebhookHandler({ urlSecret: false, onEvent: () => {}, trustProxy: 2, logger: { warn: (message) => void lines.push(message) } });
    await handler(post(body, undefined, { 'x-forwarded-for': 'ok" FAKE {"level":"info"}, 10.0.0.2' }), { remoteAddress: '10.0.0.1' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('source address ok??FAKE??');
    expect(lines[0]).not.toContain('"level"');
  });
});

describe('createWebhookHandler: urlSecret left out', () => {
  it('is a TypeError that says how to give the secret or turn the check off', () => {
    const made = () => createWebhookHandler({ onEvent: () => {}, allowedRanges: false } as unknown as WebhookHandlerOptions);
    expect(made).toThrow(TypeError);
    expect(made).toThrow('urlSecret is missing or unset: pass the secret of the URL registered in the merchant panel, or urlSecret: false for no check');
  });
});

describe('createWebhookHandler: urlSecret given but unset', () => {
  it('undefined, null or empty is a TypeError when the handler is made; false turns the check off', async () => {
    for (const urlSecret of [undefined, null, '']) {
      expect(() => createWebhookHandler({ onEvent: () => {}, urlSecret: urlSecret as never })).toThrow(
        expect.objectContaining({ name: 'TypeError', message: expect.stringContaining('urlSecret: false') }),
      );
    }
    // An unset environment variable, as users write it.
    const env: Record<string, string | undefined> = {};
    expect(() => createWebhookHandler({ onEvent: () => {}, urlSecret: env.WEBHOOK_URL_SECRET as string })).toThrow(TypeError);

    const open = createWebhookHandler({ onEvent: () => {}, urlSecret: false, allowedRanges: false });
    expect((await open(post(body, 'https://shop.example/any/path'))).status).toBe(200);
    const absent = createWebhookHandler({ urlSecret: false, onEvent: () => {}, allowedRanges: false });
    expect((await absent(post(body, 'https://shop.example/any/other/path'))).status).toBe(200);
  });
});
