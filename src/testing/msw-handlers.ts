/**
 * The msw handler of the mock, built from an msw module handed in: `emporio/testing/msw`
 * passes its static import, `mock.handlers` one loaded on first use, so `emporio/testing`
 * itself never imports msw (an optional peer dependency).
 */
import type { HttpHandler, HttpResponse, http } from 'msw';

export interface MswModule {
  http: typeof http;
  HttpResponse: typeof HttpResponse;
}

interface FetchingMock {
  baseUrl: string;
  fetch(request: Request): Promise<Response>;
}

/** Every request under the mock's baseUrl goes to `mock.fetch`. */
export function buildMswHandlers(msw: MswModule, mock: FetchingMock): HttpHandler[] {
  return [
    msw.http.all(`${mock.baseUrl}/*`, async ({ request }) => {
      try {
        return await mock.fetch(request);
      } catch (error) {
        // A dropped connection (mock.fetch's TypeError) or a client that gave up (a 'timeout' fault
        // outlived its time-out): msw turns Response.error() into the network error fetch reports.
        if (error instanceof TypeError || request.signal.aborted) return msw.HttpResponse.error();
        throw error;
      }
    }),
  ];
}
