/**
 * The admin API on a laptop that also browses the web: what a page's script could send it
 * (a cross-site text/plain POST, a rebound host name) is refused, webhook URLs are shown without
 * their secret however it is spelled, and what a receiver answers is read with a bound.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningMockMarketplace, startMockMarketplace } from 'emporio/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver } from './helpers.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start(): Promise<RunningMockMarketplace> {
  const running = await startMockMarketplace({ port: 0, webhookIntervalMs: 5 });
  closers.push(running.close);
  return running;
}

/** A raw HTTP request, so the test chooses the Host header as a browser under a rebound name would send it. */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

describe('the admin API refuses what a web page could send it', () => {
  it('a POST without Content-Type: application/json (a cross-site text/plain form or fetch) is 415 and places nothing', async () => {
    const running = await start();
    const before = running.mock.orders.list().length;
    for (const headers of [{ 'Content-Type': 'text/plain' }, { 'Content-Type': 'application/x-www-form-urlencoded' }, {}] as Record<string, string>[]) {
      const answer = await fetch(`${running.url}/__mock/admin/orders`, { method: 'POST', headers, body: '{"invoice":true}' });
      expect(answer.status).toBe(415);
      expect((await answer.json()).error).toContain('Content-Type: application/json');
    }
    const code = running.mock.orders.list()[0]?.code as string;
    const cancel = await fetch(`${running.url}/__mock/admin/orders/${code}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(415);
    expect(running.mock.orders.list()).toHaveLength(before);
    expect(running.mock.orders.get(code)?.state).not.toBe('cancelled');
    // With the JSON content type, with a body or none, it acts.
    const placed = await fetch(`${running.url}/__mock/admin/orders`, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(placed.status).toBe(201);
  });

  it('a Host that is neither loopback, an IP address nor the mock\'s own host (DNS rebinding) is 403', async () => {
    const running = await start();
    const port = new URL(running.url).port;
    const json = { 'Content-Type': 'application/json' };
    const rebound = await raw(running.url, 'POST', '/__mock/admin/orders', { ...json, Host: `attacker.example:${port}` }, '{}');
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.text).error).toContain('attacker.example');
    expect((await raw(running.url, 'GET', '/__mock/admin/orders', { Host: `evil.test:${port}` })).status).toBe(403);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `192.168.1.20:${port}`]) {
      expect((await raw(running.url, 'GET', '/__mock/admin/orders', { Host: host })).status, host).toBe(200);
    }
  });

  it('a malformed % escape in an admin path is 400, not 500', async () => {
    const running = await start();
    const answer = await fetch(`${running.url}/__mock/admin/orders/%E0%A4%A`);
    expect(answer.status).toBe(400);
    expect((await answer.json()).error).toContain('%');
  });

  it('webhook registration takes http and https URLs only', async () => {
    const running = await start();
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1:6379/_FLUSHALL', 'ftp://host/x', 'data:text/plain,x']) {
      const answer = await fetch(`${running.url}/__mock/admin/webhooks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      expect(answer.status, url).toBe(400);
      expect((await answer.json()).error).toContain('http: or https:');
    }
    expect(() => running.mock.webhooks.register('file:///etc/passwd')).toThrow(TypeError);
    expect(running.mock.webhooks.urls).toEqual([]);
  });
});

describe('webhook URLs are shown without their secret however it is spelled', () => {
  it('GET /__mock/admin/webhooks shows neither a short, a percent-encoded nor a query secret', async () => {
    const running = await start();
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const origin = new URL(receiver.url).origin;
    const urls = [
      `${origin}/hooks/Sh0rtSecr3t9`,
      `${origin}/hooks/%53%68%30rtSecr3t8`,
      `${origin}/Sh0rtSecr3t7`,
      `${origin}/hooks/v1/Sh0rtSecr3t6/`,
      `${origin}/hooks?token=Sh0rtSecr3t5&x=1`,
    ];
    for (const url of urls) running.mock.webhooks.register(url);
    running.mock.orders.create();
    await running.mock.webhooks.idle();
    const shown = await (await fetch(`${running.url}/__mock/admin/webhooks`)).text();
    expect(shown).not.toMatch(/Sh0rtSecr3t|%53%68|53h0rt/i);
    expect(JSON.parse(shown).urls).toEqual([
      `${origin}/hooks/[redacted]`,
      `${origin}/hooks/[redacted]`,
      `${origin}/[redacted]`,
      `${origin}/hooks/[redacted]`,
      `${origin}/[redacted]?[redacted]`,
    ]);
    expect(JSON.parse(shown).deliveries).toHaveLength(5);
  });
});

describe("a receiver's answer", () => {
  it('is read no further than a bound: an endless 200 answer still counts as delivered', async () => {
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          receiver.closeAllConnections();
          receiver.close(() => resolve());
        }),
    );
    const running = await startMockMarketplace({ port: 0, webhookIntervalMs: 5, webhookTimeoutMs: 20_000, webhookMaxAttempts: 1 });
    closers.push(running.close);
    running.mock.webhooks.register(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    running.mock.orders.create();
    await running.mock.webhooks.idle();
    expect(running.mock.webhooks.deliveries.map((d) => [d.status, d.ok])).toEqual([[200, true]]);
  });
});
