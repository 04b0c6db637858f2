/** msw wrapper: every request under the mock's baseUrl goes to the core handler. */
import { HttpResponse, type HttpHandler, http } from 'msw';
import { DROPPED, type HandleResult } from './mock.js';

export function createMswHandlers(baseUrl: string, handle: (request: Request) => Promise<HandleResult>): HttpHandler[] {
  const respond = async ({ request }: { request: Request }) => {
    const result = await handle(request);
    // msw turns Response.error() into the network error fetch reports for a dropped connection.
    return result === DROPPED ? HttpResponse.error() : result;
  };
  return [http.all(`${baseUrl}/*`, respond)];
}
