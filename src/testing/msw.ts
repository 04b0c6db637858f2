/**
 * `emporio/testing/msw`: the mock marketplace as msw request handlers, for tests that already
 * intercept fetch with msw. The only part of the kit that needs msw (an optional peer dependency).
 *
 *   const mock = createMockMarketplace({ vendor: 'example' });
 *   setupServer(...mswHandlers(mock)).listen();
 */
import { HttpResponse, type HttpHandler, http } from 'msw';
import type { MockCore } from './mock.js';

/** Every request under the mock's baseUrl goes to `mock.fetch`. */
export function mswHandlers(mock: MockCore): HttpHandler[] {
  return [
    http.all(`${mock.baseUrl}/*`, async ({ request }) => {
      try {
        return await mock.fetch(request);
      } catch (error) {
        // A dropped connection (mock.fetch's TypeError) or a client that gave up (a 'timeout' fault
        // outlived its time-out): msw turns Response.error() into the network error fetch reports.
        if (error instanceof TypeError || request.signal.aborted) return HttpResponse.error();
        throw error;
      }
    }),
  ];
}
