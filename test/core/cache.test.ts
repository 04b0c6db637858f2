import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, recordingLogger, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();

/** A category endpoint that answers 304 when If-None-Match matches its ETag. */
function etagServer(etag = '"v1"') {
  const seen: { ifNoneMatch: string | null; auth: string | null }[] = [];
  server.use(
    http.get(`${BASE}/categories/:id`, ({ request, params }) => {
      const ifNoneMatch = request.headers.get('if-none-match');
      seen.push({ ifNoneMatch, auth: request.headers.get('authorization') });
      if (ifNoneMatch === etag) return new HttpResponse(null, { status: 304, headers: { etag } });
      const owner = request.headers.get('authorization')?.includes('alice') ? 'alice' : 'someone else';
      return HttpResponse.json({ category: { id: Number(params.id), name: `for ${owner}` } }, { headers: { etag } });
    }),
  );
  return seen;
}

describe('ETag cache', () => {
  it('sends If-None-Match and serves a 304 from the cache', async () => {
    const seen = etagServer();
    const { lines, logger } = recordingLogger();
    const client = makeClient({ logger });
    const first = await client.catalog.categories.get(5);
    const second = await client.catalog.categories.get(5);
    expect(seen.map((s) => s.ifNoneMatch)).toEqual([null, '"v1"']);
    expect(second).toEqual(first);
    expect(lines.some((l) => l.startsWith('cache hit'))).toBe(true);
  });

  it('never shares a cached answer between tokens, even with a shared store', async () => {
    const seen = etagServer();
    const store = new Map();
    const alice = makeClient({ token: 'alice-token', cache: store });
    const bob = makeClient({ token: 'bob-token', cache: store });
    const forAlice = await alice.catalog.categories.get(5);
    const forBob = await bob.catalog.categories.get(5);
    expect(seen.map((s) => s.ifNoneMatch)).toEqual([null, null]);
    expect(forAlice.name).toBe('for alice');
    expect(forBob.name).toBe('for someone else');
  });

  it('keeps tokens out of cache keys and values', async () => {
    etagServer();
    const store = new Map<string, unknown>();
    await makeClient({ cache: store }).catalog.categories.get(5);
    expect(store.size).toBe(1);
    for (const [key, value] of store) {
      expect(key).not.toContain(TOKEN);
      expect(JSON.stringify(value)).not.toContain(TOKEN.slice(4));
    }
  });

  it('works with an async store (Keyv-like) and with cache: false', async () => {
    const seen = etagServer();
    const map = new Map<string, unknown>();
    const asyncStore = {
      get: async (k: string) => map.get(k),
      set: async (k: string, v: unknown) => void map.set(k, v),
      delete: async (k: string) => map.delete(k),
    };
    const cached = makeClient({ cache: asyncStore });
    await cached.catalog.categories.get(5);
    await cached.catalog.categories.get(5);
    const uncached = makeClient({ cache: false });
    await uncached.catalog.categories.get(5);
    await uncached.catalog.categories.get(5);
    expect(seen.map((s) => s.ifNoneMatch)).toEqual([null, '"v1"', null, null]);
  });

  it('falls back to a plain request when the store fails', async () => {
    const seen = etagServer();
    const broken = {
      get: async () => {
        throw new Error('redis down');
      },
      set: async () => {
        throw new Error('redis down');
      },
      delete: async () => undefined,
    };
    const category = await makeClient({ cache: broken }).catalog.categories.get(5);
    expect(category.id).toBe(5);
    expect(seen).toHaveLength(1);
  });
});
