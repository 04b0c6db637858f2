/**
 * `emporio/testing/msw`: the mock marketplace as msw request handlers, for tests that already
 * intercept fetch with msw. The only part of the kit that needs msw (an optional peer dependency).
 *
 *   const mock = createMockMarketplace({ vendor: 'example' });
 *   setupServer(...mswHandlers(mock)).listen();
 */
import { HttpResponse, type HttpHandler, http } from 'msw';
import type { MockMarketplace } from './mock.js';
import { buildMswHandlers } from './msw-handlers.js';

/** Every request under the mock's baseUrl goes to `mock.fetch`. */
export function mswHandlers(mock: MockMarketplace): HttpHandler[] {
  return buildMswHandlers({ http, HttpResponse }, mock);
}
