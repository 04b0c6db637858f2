/**
 * The sender of a webhook delivery: its address (the socket's peer, or behind proxies the first
 * untrusted hop of X-Forwarded-For), the checks of the range options, and the address as logs show it.
 */
import { type CompiledRanges, compileRanges, isAllowedSourceIp } from './ip.js';

export function checkRanges(ranges: readonly string[], option: string): CompiledRanges {
  if (!Array.isArray(ranges)) throw new TypeError(`createWebhookHandler: ${option} must be an array of CIDR strings`);
  try {
    return compileRanges(ranges, true);
  } catch (error) {
    throw new TypeError(`createWebhookHandler: ${option}: ${(error as Error).message}`);
  }
}

/** The sender: the socket's peer, or with `trustProxy` the first untrusted hop of X-Forwarded-For. */
export function senderAddress(request: Request, socketAddress: string | undefined, proxy: number | readonly string[] | undefined) {
  if (proxy === undefined || proxy === 0) return socketAddress;
  const header = request.headers.get('x-forwarded-for');
  const chain = header === null ? [] : header.split(',').map(hostOnly).filter((hop) => hop.length > 0);
  // A hop count needs no peer address: the peer is the first trusted proxy, whose address is not
  // used. So it works where the platform is the proxy and tells no peer (a Vercel edge function).
  if (typeof proxy === 'number') {
    // `proxy` hops are trusted: the socket's peer and the last proxy - 1 header entries.
    // A shorter chain skipped a proxy, so its leftmost entry may be the sender's own
    // writing (Express would use it): refused.
    return chain.length < proxy ? undefined : chain[chain.length - proxy];
  }
  if (socketAddress === undefined) return undefined;
  let address = socketAddress;
  for (let i = chain.length - 1; i >= 0 && isAllowedSourceIp(address, proxy); i--) address = chain[i]!;
  return address;
}

/** An X-Forwarded-For entry without the port some proxies append (`1.2.3.4:5678`, `[2a03:e40::1]:443`). */
function hostOnly(entry: string): string {
  const hop = entry.trim();
  if (hop.startsWith('[')) {
    const close = hop.indexOf(']');
    return close === -1 ? hop : hop.slice(0, close + 1);
  }
  const colon = hop.indexOf(':');
  return colon !== -1 && colon === hop.lastIndexOf(':') ? hop.slice(0, colon) : hop;
}

/** The default ranges refuse loopback, where the mock marketplace's deliveries come from in tests: say what accepts them. */
export const MOCK_DELIVERIES_HINT = " (the mock? see mockDeliveryOptions in emporio/testing)";

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export const isLoopback = (address: string | undefined) => /^(::ffff:)?127\.|^::1$/i.test(address ?? '');

/** An address as logs show it: a sender may write X-Forwarded-For, so only address characters, bounded. */
export function printable(address: string | undefined): string | undefined {
  return address === undefined ? undefined : address.replace(/[^\w.:%[\]-]/g, '?').slice(0, 64);
}
