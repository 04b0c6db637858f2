/** msw wrapper: every request under the mock's baseUrl goes to the core handler. */
import { HttpResponse, type HttpHandler, http } from 'msw';
import { DROPPED, type HandleResult } from './mock.js';

export function createMswHandlers(baseUrl: string, handle: (request: Request) => Promise<HandleResult>): HttpHandler[] {
  const respond = async ({ request }: { request: Request }) => {
    let result: HandleResult;
    try {
      result = await handle(request);
    } catch (error) {
      // The client gave up (a 'timeout' fault outlived its time-out): nobody reads this answer.
      if (request.signal.aborted) return HttpResponse.error();
      throw error;
    }
    // msw turns Response.error() into the network error fetch reports for a dropped connection.
    return result === DROPPED ? HttpResponse.error() : result;
  };
  return [http.all(`${baseUrl}/*`, respond)];
}
