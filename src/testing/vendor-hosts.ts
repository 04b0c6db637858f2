/**
 * The sandbox data's file URLs (courier vouchers, invoices, customers' return photos) as a mock
 * started with a vendor serves them. The recordings name the operator's site `marketplace.example`
 * (the name replaced, as everywhere) and leave its static-file hosts in (`b.scdn.gr`, ...): with
 * vendor `acme`, an order of the service would point at acme's hosts, so the mock's do too:
 * `acme.example` for the site, `cdn.acme.example` for the static files. With the default vendor
 * the data stays as recorded.
 */
import { vendorSpelling } from '../schemas/vendor.js';

/** The site as the recordings name it: the operator's name replaced by `marketplace`. */
const RECORDED_SITE = 'marketplace.example';
/** Static-file hosts of the recordings and of the service's documented examples. */
const RECORDED_FILE_HOSTS = new Set(['b.scdn.gr', 'statics.scdn.gr', 'demo.cdn.example.gr']);

/** `value` (an order or a return, deeply) with each recorded host replaced by the vendor's; a copy when anything changed. */
export function onVendorHosts<T>(value: T, vendor: string): T {
  const spelling = vendorSpelling(vendor);
  if (spelling === undefined) return value;
  const name = spelling.vendor.toLowerCase();
  const hostOf = (host: string) => (host === RECORDED_SITE ? `${name}.example` : RECORDED_FILE_HOSTS.has(host) ? `cdn.${name}.example` : host);
  const rewrite = (text: string) => text.replace(/^(https?:\/\/)([^/?#]+)/i, (_whole, scheme: string, host: string) => `${scheme}${hostOf(host.toLowerCase())}`);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return rewrite(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, member]) => [key, walk(member)]));
    return node;
  };
  return walk(value) as T;
}
