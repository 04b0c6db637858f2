/** The ETag cache with a real Keyv instance as its store. */
import Keyv from 'keyv';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server';

const server = useMswServer();

/** A category endpoint that answers 304 when If-None-Match matches its ETag. */
function etagServer(etag = '"v1"') {
  const seen: { ifNoneMatch: string | null; status: number }[] = [];
  server.use(
    http.get(`${BASE}/categories/:id`, ({ request, params }) => {
      const ifNoneMatch = request.headers.get('if-none-match');
      if (ifNoneMatch === etag) {
        seen.push({ ifNoneMatch, status: 304 });
        return new HttpResponse(null, { status: 304, headers: { etag } });
      }
      seen.push({ ifNoneMatch, status: 200 });
      return HttpResponse.json({ category: { id: Number(params.id), name: 'Phones' } }, { headers: { etag } });
    }),
  );
  return seen;
}

describe('ETag cache with Keyv', () => {
  it('sends If-None-Match with the ETag, and a 304 resolves to the cached body', async () => {
    const seen = etagServer();
    const client = makeClient({ cache: new Keyv() });
    const first = await client.catalog.categories.get(5);
    const second = await client.catalog.categories.get(5);
    expect(seen).toEqual([
      { ifNoneMatch: null, status: 200 },
      { ifNoneMatch: '"v1"', status: 304 },
    ]);
    expect(first).toMatchObject({ id: 5, name: 'Phones' });
    expect(second).toEqual(first);
  });

  it('keeps the token out of the keys and values Keyv stores', async () => {
    etagServer();
    const store = new Map<string, string>();
    const client = makeClient({ cache: new Keyv({ store }) });
    await client.catalog.categories.get(5);
    await client.catalog.categories.get(5);
    expect(store.size).toBe(1);
    for (const [key, value] of store) {
      expect(key).toContain('emporio:');
      expect(key).not.toContain(TOKEN);
      // Keyv keeps the serialised entry: the cached answer, and nothing of the token.
      expect(JSON.parse(value).value).toMatchObject({ etag: '"v1"', body: expect.stringContaining('Phones') });
      expect(value).not.toContain(TOKEN);
      expect(value).not.toContain(TOKEN.slice(4));
    }
  });
});
