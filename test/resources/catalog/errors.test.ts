/** Strict requests (nothing sent on bad input), 404s, and permission-naming 401/403s on catalog calls. */
import {
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  RequestValidationError,
  UnprocessableEntityError,
} from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, TOKEN, useMswServer } from '../../helpers/server.js';
import { capture, rejection } from './helpers.js';

const server = useMswServer();
const client = () => makeClient({ maxRetries: 0, rateLimit: false, cache: false });

/** Counts every request that reaches the network, whatever its path. */
function countRequests(): { count: number } {
  const counter = { count: 0 };
  server.use(
    http.all(`${BASE}/*`, () => {
      counter.count++;
      return HttpResponse.json({ errors: [{ code: 'unexpected', messages: ['should not be sent'] }] }, { status: 500 });
    }),
  );
  return counter;
}

describe('search terms shorter than 2 characters are refused before sending', () => {
  const c = client();
  const calls: [string, () => Promise<unknown>][] = [
    ['search', () => c.catalog.search('a')],
    ['search (spaces do not count)', () => c.catalog.search(' a ')],
    ['books.search', () => c.catalog.books.search('x')],
    ['autocomplete', () => c.catalog.autocomplete('i')],
    ['shops.search', () => c.catalog.shops.search('s')],
    ['categories.skus q', () => c.catalog.categories.skus(40, { q: 'g' })],
    ['bookCategories.filters q', () => c.catalog.bookCategories.filters({ q: '' })],
  ];
  for (const [name, call] of calls) {
    it(name, async () => {
      const sent = countRequests();
      const error = await rejection(call());
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toEqual(['q']);
      expect(sent.count).toBe(0);
    });
  }

  it('for await over a short search rejects too, with nothing sent', async () => {
    const sent = countRequests();
    const error = await rejection(
      (async () => {
        for await (const _ of c.catalog.search('a')) {
          /* never reached */
        }
      })(),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(sent.count).toBe(0);
  });

  it('a server-side InvalidSearch 422 still maps to UnprocessableEntityError', async () => {
    capture(server, 'get', `${BASE}/search`, () =>
      HttpResponse.json({ errors: [{ code: 'InvalidSearch', messages: ['Invalid search'] }] }, { status: 422 }),
    );
    const error = await rejection(c.catalog.search('ab'));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).code).toBe('InvalidSearch');
  });
});

describe('other bad input is refused before sending', () => {
  it('an unknown parameter (a typo) names the field', async () => {
    const sent = countRequests();
    // @ts-expect-error filter_id is a typo of filter_ids
    const error = await rejection(client().catalog.categories.skus(40, { filter_id: [1] }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(String((error as Error).message)).toContain('filter_id');
    expect(sent.count).toBe(0);
  });

  it('a bad path id rejects (no throw), nothing sent', async () => {
    const sent = countRequests();
    const pending = client().catalog.skus.get(-1);
    expect(pending).toBeInstanceOf(Promise);
    expect(await rejection(pending)).toBeInstanceOf(RequestValidationError);
    expect(await rejection(client().catalog.categories.skus(1.5).then((p) => p))).toBeInstanceOf(RequestValidationError);
    expect(sent.count).toBe(0);
  });

  it('review bodies: rating 1..5, flag reason required, vote helpful boolean', async () => {
    const sent = countRequests();
    const c = client();
    const rating = await rejection(c.catalog.skus.createReview(1, { rating: 6 }));
    expect((rating as RequestValidationError).issues[0]?.path).toEqual(['rating']);
    // @ts-expect-error reason is required
    expect(await rejection(c.catalog.skus.flagReview(1, 2, {}))).toBeInstanceOf(RequestValidationError);
    // @ts-expect-error helpful is a boolean
    expect(await rejection(c.catalog.skus.voteReview(1, 2, { helpful: 'yes' }))).toBeInstanceOf(RequestValidationError);
    expect(await rejection(c.catalog.locations.find({ lat: 'north', lng: '23.7' }))).toBeInstanceOf(RequestValidationError);
    expect(sent.count).toBe(0);
  });
});

describe('error answers', () => {
  it('404 RecordNotFound is a NotFoundError', async () => {
    capture(server, 'get', `${BASE}/skus/1`, () =>
      HttpResponse.json({ errors: [{ code: 'RecordNotFound', messages: ['Sku not found'] }] }, { status: 404 }),
    );
    const error = await rejection(client().catalog.skus.get(1));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('RecordNotFound');
    expect((error as Error).message).toContain('Sku not found');
  });

  it('a 404 on the first page of a listing rejects the PagePromise', async () => {
    capture(server, 'get', `${BASE}/categories/999/skus`, () =>
      HttpResponse.json({ errors: [{ code: 'RecordNotFound', messages: ['Category not found'] }] }, { status: 404 }),
    );
    expect(await rejection(client().catalog.categories.skus(999))).toBeInstanceOf(NotFoundError);
  });

  it('a 401 on the SKU favorite lookup names the favorites permission, without the token', async () => {
    capture(server, 'get', `${BASE}/skus/1/favorite`, () =>
      HttpResponse.json({ errors: [{ code: 'unauthorized', messages: ['Invalid token'] }] }, { status: 401 }),
    );
    const error = await rejection(client().catalog.skus.favorite(1));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('favorites permission');
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it('a 403 with { errors } on a review write names publish_sku_review_actions', async () => {
    capture(server, 'post', `${BASE}/skus/1/reviews/2/votes`, () =>
      HttpResponse.json({ errors: [{ code: 'forbidden', messages: ['Not allowed'] }] }, { status: 403 }),
    );
    const error = await rejection(client().catalog.skus.voteReview(1, 2, { helpful: true }));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toContain('publish_sku_review_actions permission');
  });

  it('a 403 on category favorites names the favorites permission', async () => {
    capture(server, 'get', `${BASE}/categories/40/favorites`, () =>
      HttpResponse.json({ errors: [{ code: 'forbidden', messages: ['Missing scope'] }] }, { status: 403 }),
    );
    const error = await rejection(client().catalog.categories.favorites(40));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toContain('favorites permission');
  });
});
