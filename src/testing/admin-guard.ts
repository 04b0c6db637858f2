/**
 * What the admin API refuses before it acts. It runs on developers' laptops, which also browse the
 * web: a page's script may POST to `http://127.0.0.1:4010/__mock/admin/...` (a cross-site form or a
 * `text/plain` fetch needs no preflight), or reach it under its own name rebound to 127.0.0.1.
 * So a request that changes something must say `Content-Type: application/json` (which a browser
 * sends cross-site only after a preflight the mock never grants), and the `Host` must be a loopback
 * name, an IP address (rebinding needs a name) or the host the mock was started on.
 */
import { isIP } from 'node:net';
import { isLoopbackHost } from '../core/options.js';
import { parseMediaType } from './wire.js';

/** Why the admin API refuses `request` (a status and a message), or undefined when it may go on. */
export function adminRefusal(request: Request, boundHost: string): { status: number; error: string } | undefined {
  const host = new URL(request.url).hostname;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (!isLoopbackHost(host) && isIP(bare) === 0 && host !== boundHost.toLowerCase()) {
    return { status: 403, error: `the admin API answers only under a loopback name, an IP address or ${boundHost}, not ${host}` };
  }
  if (request.method !== 'GET' && request.method !== 'HEAD' && parseMediaType(request.headers.get('content-type'))?.type !== 'application/json') {
    return {
      status: 415,
      error: `${request.method} takes Content-Type: application/json (with or without a body), e.g. curl -X ${request.method} -H 'Content-Type: application/json' ...`,
    };
  }
  return undefined;
}
