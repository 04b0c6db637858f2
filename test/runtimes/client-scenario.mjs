/**
 * The client's checks, the same on every runtime (Node, Bun, Deno, a Worker, an edge function):
 * given the `emporio` module and the mock's address, resolves to one `{ check, ok, detail }` per
 * check. Plain JavaScript with no imports, so it is bundled into a Worker as it is run elsewhere.
 */
export async function clientScenario(emporio, { mockUrl, burstUrl, vendor, tokens, skuId }) {
  const { results, check, expect } = checks();
  const statuses = [];
  const client = new emporio.MarketplaceClient({ baseUrl: mockUrl, vendor, tokens, hooks: { onResponse: (event) => void statuses.push(event.status) } });

  await check('orders.get', async () => {
    const order = await client.orders.get('DEMO-OPEN');
    expect(order.code === 'DEMO-OPEN' && order.state === 'open', `got ${order.code} ${order.state}`);
    return `${order.code} ${order.state}`;
  });
  await check('orders.accept', async () => {
    const order = await client.orders.get('DEMO-OPEN');
    const location = order.accept_options?.pickup_location?.[0]?.id;
    const window = order.accept_options?.pickup_window?.[0]?.id;
    // DEMO orders are the sandbox's: the accept is checked and answered, the order left open.
    const { response } = await client.orders.accept(order.code, { pickup_location: location, pickup_window: window }).withResponse();
    expect(response.status === 200, `answered ${response.status}`);
    return `answered ${response.status}`;
  });
  await check('listing: 3 pages, then 3 x 304', async () => {
    const walk = async () => {
      let pages = 0;
      let items = 0;
      for await (const page of client.catalog.categories.skus(40, { per: 50 }).pages()) {
        pages++;
        items += page.items.length;
      }
      return { pages, items };
    };
    const first = await walk();
    const before = statuses.length;
    const again = await walk();
    const revalidated = statuses.slice(before).filter((status) => status === 304).length;
    expect(first.pages === 3 && again.items === first.items && revalidated === 3, `pages ${first.pages}, items ${first.items}/${again.items}, 304s ${revalidated}`);
    return `${first.items} items, ${revalidated} x 304`;
  });
  await check('rate-limited burst', async () => {
    // The burst mock allows 2 catalog calls per 1-second window: 5 calls span 3 windows.
    const burst = new emporio.MarketplaceClient({ baseUrl: burstUrl, vendor, tokens });
    const started = Date.now();
    const skus = await Promise.all(Array.from({ length: 5 }, () => burst.catalog.skus.get(skuId)));
    const elapsed = Date.now() - started;
    expect(skus.every((sku) => sku.id === skuId), 'every call answered');
    expect(elapsed >= 950, `5 calls in ${elapsed} ms: the budget was not waited for`);
    return `5 calls in ${elapsed} ms`;
  });
  await check('timeout', async () => {
    const started = Date.now();
    const error = await client.orders.get('DEMO-SLOW', { timeout: 300, maxRetries: 0 }).then(
      () => undefined,
      (e) => e,
    );
    expect(error instanceof emporio.TimeoutError, `rejected with ${error?.name}: ${error?.message}`);
    return `TimeoutError after ${Date.now() - started} ms`;
  });
  await check('abort', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped by the caller');
    setTimeout(() => controller.abort(reason), 100);
    const error = await client.orders.get('DEMO-SLOW', { signal: controller.signal }).then(
      () => undefined,
      (e) => e,
    );
    expect(error === reason, `rejected with ${error?.name}: ${error?.message}`);
    return "rejected with the signal's reason";
  });
  return results;
}

/** One `{ check, ok, detail }` per named check into `results` (a check that throws is a failed row), and `expect`. */
export function checks() {
  const results = [];
  const check = async (name, body) => {
    try {
      results.push({ check: name, ok: true, detail: await body() });
    } catch (error) {
      results.push({ check: name, ok: false, detail: String(error?.stack ?? error).slice(0, 600) });
    }
  };
  const expect = (condition, what) => {
    if (!condition) throw new Error(what);
  };
  return { results, check, expect };
}
