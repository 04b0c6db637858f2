/**
 * 1. Request overhead: sequential `client.orders.get` (full recorded order, validation on)
 * against raw fetch + JSON.parse and bare ky, on a plain loopback server that answers the
 * same canned body to all of them. Each round gives every variant 2,000 calls, interleaved
 * in slices of 100: the differences measured are a few per cent, below the drift between
 * back-to-back runs of 2,000 calls on a shared 2-core machine.
 *
 * ky is the SDK's chosen HTTP layer, so the goals are the SDK's own overhead over bare ky,
 * and the cost users see at a realistic latency: against raw fetch with a server that takes
 * 5 ms to answer. The loopback figures against raw fetch are information (ky's own cost).
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { MarketplaceClient } from 'emporio';
import ky from 'ky';
import { compareInterleaved, fmt, loopbackServer, type Row } from './harness.js';

const CALLS = 2_000;
/** Each call of the latency comparison takes at least LATENCY_MS: fewer calls, smaller slices. */
const LATENCY_MS = 5;
const LATENCY_CALLS = 200;
const TOKEN = 'bench-orders-token';
const orderUrl = (base: string) => `${base}/merchants/ecommerce/orders/DEMO-OPEN`;

export async function benchRequestOverhead(): Promise<Row[]> {
  const recorded = JSON.parse(
    readFileSync(new URL('../test/fixtures/recorded/merchants_ecommerce_orders_demo_open.json', import.meta.url), 'utf8'),
  ) as { response: { body: unknown } };
  const body = Buffer.from(JSON.stringify(recorded.response.body));
  const answer = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  };
  const server = await loopbackServer((_req, res) => answer(res));
  const slowServer = await loopbackServer((_req, res) => {
    setTimeout(answer, LATENCY_MS, res);
  });
  try {
    const headers = { accept: 'application/vnd.marketplace+json; version=3.0', authorization: `Bearer ${TOKEN}` };
    const options = { baseUrl: server.url, vendor: 'marketplace', token: TOKEN, maxRetries: 0 };
    const client = new MarketplaceClient(options);
    const uncached = new MarketplaceClient({ ...options, cache: false });
    const bareKy = ky.create({ retry: 0 });
    const check = (order: { code: string }) => {
      if (order.code !== 'DEMO-OPEN') throw new Error('wrong answer');
    };
    /** n calls of raw fetch + JSON.parse on `base`. */
    const viaFetch = (base: string) => {
      const target = orderUrl(base);
      return async (n: number) => {
        for (let i = 0; i < n; i++) {
          const response = await fetch(target, { headers });
          check((JSON.parse(await response.text()) as { order: { code: string } }).order);
        }
      };
    };
    /** n calls of bare ky (`.json()`) on `base`. */
    const viaKy = (base: string) => {
      const target = orderUrl(base);
      return async (n: number) => {
        for (let i = 0; i < n; i++) check((await bareKy.get(target, { headers }).json<{ order: { code: string } }>()).order);
      };
    };
    /** n calls of `sdk.orders.get`. */
    const viaSdk = (sdk: MarketplaceClient) => async (n: number) => {
      for (let i = 0; i < n; i++) check(await sdk.orders.get('DEMO-OPEN'));
    };

    const slowClient = new MarketplaceClient({ ...options, baseUrl: slowServer.url });
    const slow = await compareInterleaved(
      {
        fetch: viaFetch(slowServer.url),
        ky: viaKy(slowServer.url),
        sdk: viaSdk(slowClient),
      },
      { calls: LATENCY_CALLS, slice: 10, warmup: 1, rounds: 7 },
    );

    const m = await compareInterleaved(
      {
        fetch: viaFetch(server.url),
        ky: viaKy(server.url),
        sdk: viaSdk(client),
        sdkNoCache: viaSdk(uncached),
      },
      { calls: CALLS, warmup: 1, rounds: 7 },
    );

    const per = (ms: number) => fmt.us(ms / CALLS);
    const slowData = { calls: LATENCY_CALLS, latencyMs: LATENCY_MS, medianMs: { fetch: slow.fetch, ky: slow.ky, sdk: slow.sdk }, samples: slow.samples };
    const data = { calls: CALLS, bodyBytes: body.length, medianMs: { fetch: m.fetch, ky: m.ky, sdk: m.sdk, sdkNoCache: m.sdkNoCache }, samples: m.samples };
    return [
      {
        name: 'orders.get vs bare ky',
        measured: `${per(m.sdk)}/call`,
        baseline: `${per(m.ky)} ky`,
        ratio: m.sdk / m.ky,
        goal: '<= 1.05',
        pass: m.sdk / m.ky <= 1.05,
        data,
      },
      {
        name: `orders.get vs raw fetch, ${LATENCY_MS} ms server latency`,
        measured: `${fmt.us(slow.sdk / LATENCY_CALLS)}/call`,
        baseline: `${fmt.us(slow.fetch / LATENCY_CALLS)} fetch`,
        ratio: slow.sdk / slow.fetch,
        goal: '<= 1.03',
        pass: slow.sdk / slow.fetch <= 1.03,
        data: slowData,
      },
      {
        name: `bare ky vs raw fetch, ${LATENCY_MS} ms server latency (context)`,
        measured: `${fmt.us(slow.ky / LATENCY_CALLS)}/call`,
        baseline: `${fmt.us(slow.fetch / LATENCY_CALLS)} fetch`,
        ratio: slow.ky / slow.fetch,
        goal: '-',
        pass: undefined,
        data: slowData,
      },
      {
        name: 'orders.get vs raw fetch',
        measured: `${per(m.sdk)}/call`,
        baseline: `${per(m.fetch)} fetch`,
        ratio: m.sdk / m.fetch,
        goal: '-',
        pass: undefined,
        data,
      },
      {
        name: 'orders.get cache:false vs raw fetch',
        measured: `${per(m.sdkNoCache)}/call`,
        baseline: `${per(m.fetch)} fetch`,
        ratio: m.sdkNoCache / m.fetch,
        goal: '-',
        pass: undefined,
        data,
      },
      {
        name: 'bare ky vs raw fetch (context)',
        measured: `${per(m.ky)}/call`,
        baseline: `${per(m.fetch)} fetch`,
        ratio: m.ky / m.fetch,
        goal: '-',
        pass: undefined,
        data,
      },
    ];
  } finally {
    await server.close();
    await slowServer.close();
  }
}
