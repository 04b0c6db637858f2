/**
 * Answers to catalog and account writes in the forms the real service has sent besides the
 * documented one (recorded 2014–2016): the change was made, so each resolves (the missing root key
 * reported as drift; an empty answer resolves to undefined) instead of failing a call the caller would repeat; and a 200 in the field
 * form of errors is the error it describes.
 */
import { ApiError, type DriftReport, ResponseValidationError } from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, useMswServer } from '../helpers/server.js';

const server = useMswServer();

function clientWithDrift(strict = false) {
  const reports: DriftReport[] = [];
  return { reports, client: makeClient({ maxRetries: 0, strict, hooks: { onDrift: (report) => reports.push(report) } }) };
}

const FAVORITE = { id: 9_120_331, user_id: 334_941, sku_id: 3_982_592, favorite_list_id: -12, have_it: null, created_at: '2015-03-02T11:04:12+02:00' };
const FAVORITE_LIST = { id: 88_412, name: 'Δώρα', category_id: null, favorites_count: 0 };
const VOTE = { id: 562_155, sku_review_id: 21_943, user_id: 334_941, helpful: true, created_at: '2016-01-31T13:06:30+02:00' };

/** Each write, the answer forms it has been sent in, and what the call resolves to. */
const WRITES = [
  {
    name: 'favorites.create, the favorite without its root key',
    route: http.post(`${BASE}/favorites`, () => HttpResponse.json(FAVORITE, { status: 201 })),
    call: (client: ReturnType<typeof makeClient>) => client.account.favorites.create({ sku_id: 3_982_592 }),
    resolves: FAVORITE,
    drift: '$.favorite',
  },
  {
    name: 'favoriteLists.create, the list without its root key',
    route: http.post(`${BASE}/favorite_lists`, () => HttpResponse.json(FAVORITE_LIST, { status: 201 })),
    call: (client: ReturnType<typeof makeClient>) => client.account.favoriteLists.create({ name: 'Δώρα' }),
    resolves: FAVORITE_LIST,
    drift: '$.favorite_list',
  },
  {
    name: 'skus.voteReview, the vote as a bare object',
    route: http.post(`${BASE}/skus/3982592/reviews/21943/votes`, () => HttpResponse.json(VOTE, { status: 201 })),
    call: (client: ReturnType<typeof makeClient>) => client.catalog.skus.voteReview(3_982_592, 21_943, { helpful: true }),
    resolves: VOTE,
    drift: '$.sku_review_vote',
  },
  {
    name: 'skus.flagReview, 201 with an empty body',
    route: http.post(`${BASE}/skus/3982592/reviews/21943/flags`, () => new HttpResponse(null, { status: 201 })),
    call: (client: ReturnType<typeof makeClient>) => client.catalog.skus.flagReview(3_982_592, 21_943, { reason: 'spam' }),
    resolves: undefined,
    drift: undefined,
  },
] as const;

describe('a write the service made, answered in another form than documented', () => {
  for (const write of WRITES) {
    it(`${write.name}: resolves, a missing root key reported as drift`, async () => {
      server.use(write.route);
      const { client, reports } = clientWithDrift();
      await expect(write.call(client)).resolves.toEqual(write.resolves);
      // An empty answer has no member to report: it resolves to undefined, as its type says.
      const expected = write.drift === undefined ? [] : [['account', 'POST', write.drift, 'undefined']];
      expect(reports.map((report) => [report.api, report.method, report.path, report.received])).toEqual(expected);
    });
  }

  it('the documented forms resolve without drift: favorite and vote under their root keys, the flag as an object', async () => {
    server.use(
      http.post(`${BASE}/favorites`, () => HttpResponse.json({ favorite: FAVORITE }, { status: 201 })),
      http.post(`${BASE}/skus/3982592/reviews/21943/votes`, () => HttpResponse.json({ sku_review_vote: VOTE }, { status: 201 })),
      http.post(`${BASE}/skus/3982592/reviews/21943/flags`, () =>
        HttpResponse.json({ id: 8847, flaggable_id: 21_943, flaggable_type: 'SkuReview', user_id: 334_941, reason: 'spam' }, { status: 201 }),
      ),
    );
    const { client, reports } = clientWithDrift();
    await expect(client.account.favorites.create({ sku_id: 3_982_592 })).resolves.toEqual(FAVORITE);
    await expect(client.catalog.skus.voteReview(3_982_592, 21_943, { helpful: true })).resolves.toEqual(VOTE);
    expect((await client.catalog.skus.flagReview(3_982_592, 21_943, { reason: 'spam' }))?.id).toBe(8847);
    expect(reports).toEqual([]);
  });

  it('strict: true still refuses the undocumented forms', async () => {
    server.use(WRITES[0].route);
    await expect(WRITES[0].call(clientWithDrift(true).client)).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

describe('a 2xx in the error form is the error it describes', () => {
  it('{ errors: { name: [...] } } (object form, recorded for a favorite list) is an ApiError with the service\'s message', async () => {
    server.use(http.post(`${BASE}/favorite_lists`, () => HttpResponse.json({ errors: { name: ['has already been taken'] } })));
    const error = await makeClient({ maxRetries: 0 })
      .account.favoriteLists.create({ name: 'Δώρα' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ResponseValidationError);
    expect((error as ApiError).status).toBe(200);
    expect((error as ApiError).errors).toEqual([{ code: 'name', messages: ['has already been taken'] }]);
    expect((error as Error).message).toContain('has already been taken');
  });

  it('the array form, as before; an errors member that is no error form leaves the answer alone', async () => {
    server.use(http.post(`${BASE}/favorite_lists`, () => HttpResponse.json({ errors: [{ code: 'taken', messages: ['Name is taken'] }] })));
    const error = await makeClient({ maxRetries: 0 })
      .account.favoriteLists.create({ name: 'Δώρα' })
      .catch((e: unknown) => e);
    expect((error as ApiError).errors).toEqual([{ code: 'taken', messages: ['Name is taken'] }]);
    server.use(http.post(`${BASE}/favorite_lists`, () => HttpResponse.json({ favorite_list: FAVORITE_LIST, errors: {} }, { status: 201 })));
    await expect(makeClient({ maxRetries: 0 }).account.favoriteLists.create({ name: 'Δώρα' })).resolves.toEqual(FAVORITE_LIST);
  });
});
