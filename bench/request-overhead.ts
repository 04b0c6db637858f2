/**
 * 1. Request overhead: sequential `client.orders.get` (full recorded order, validation on)
 * against raw fetch + JSON.parse and bare ky, on a plain loopback server that answers the
 * same canned body to all of them. Each round gives every variant 2,000 calls, interleaved
 * in slices of 100: the differences measured are a few per cent, below the drift between
 * back-to-back runs of 2,000 calls on a shared 2-core machine.
 */
import { readFileSync } from 'node:fs';
import { MarketplaceClient } from 'emporio';
import ky from 'ky';
import { compareInterleaved, fmt, loopbackServer, type Row } from './harness.js';

const CALLS = 2_000;
const TOKEN = 'bench-orders-token';

export async function benchRequestOverhead(): Promise<Row[]> {
  const recorded = JSON.parse(
    readFileSync(new URL('../test/fixtures/recorded/merchants_ecommerce_orders_demo_open.json', import.meta.url), 'utf8'),
  ) as { response: { body: unknown } };
  const body = Buffer.from(JSON.stringify(recorded.response.body));
  const server = await loopbackServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  try {
    const url = `${server.url}/merchants/ecommerce/orders/DEMO-OPEN`;
    const headers = { accept: 'application/vnd.marketplace+json; version=3.0', authorization: `Bearer ${TOKEN}` };
    const options = { baseUrl: server.url, vendor: 'marketplace', token: TOKEN, maxRetries: 0 };
    const client = new MarketplaceClient(options);
    const uncached = new MarketplaceClient({ ...options, cache: false });
    const bareKy = ky.create({ retry: 0 });
    const check = (order: { code: string }) => {
      if (order.code !== 'DEMO-OPEN') throw new Error('wrong answer');
    };

    const m = await compareInterleaved(
      {
        fetch: async (n) => {
          for (let i = 0; i < n; i++) {
            const response = await fetch(url, { headers });
            check((JSON.parse(await response.text()) as { order: { code: string } }).order);
          }
        },
        ky: async (n) => {
          for (let i = 0; i < n; i++) check((await bareKy.get(url, { headers }).json<{ order: { code: string } }>()).order);
        },
        sdk: async (n) => {
          for (let i = 0; i < n; i++) check(await client.orders.get('DEMO-OPEN'));
        },
        sdkNoCache: async (n) => {
          for (let i = 0; i < n; i++) check(await uncached.orders.get('DEMO-OPEN'));
        },
      },
      { calls: CALLS, warmup: 1, rounds: 7 },
    );

    const per = (ms: number) => fmt.us(ms / CALLS);
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
        name: 'orders.get vs raw fetch',
        measured: `${per(m.sdk)}/call`,
        baseline: `${per(m.fetch)} fetch`,
        ratio: m.sdk / m.fetch,
        goal: '<= 1.25',
        pass: m.sdk / m.fetch <= 1.25,
        data,
      },
      {
        name: 'orders.get cache:false vs raw fetch',
        measured: `${per(m.sdkNoCache)}/call`,
        baseline: `${per(m.fetch)} fetch`,
        ratio: m.sdkNoCache / m.fetch,
        goal: '<= 1.25',
        pass: m.sdkNoCache / m.fetch <= 1.25,
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
  }
}
