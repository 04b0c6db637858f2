/** Test helpers for the catalog, account and legacy namespaces: request capture and recorded-answer replay. */
import { readdirSync, readFileSync } from 'node:fs';
import { HttpResponse, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { BASE } from '../../helpers/server.js';

export const RECORDED_HOST = 'https://api.marketplace.example';
export const ACCEPT_32 = 'application/vnd.marketplace+json; version=3.2';

export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  /** Parsed JSON body, the raw text when not JSON, or undefined when empty. */
  body: unknown;
  /** The form fields, for multipart bodies. */
  form?: Record<string, string>;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Answer = (seen: Seen, index: number) => Response | Promise<Response>;

async function read(request: Request): Promise<Seen> {
  const url = new URL(request.url);
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) {
    const data = await request.formData();
    const form: Record<string, string> = {};
    data.forEach((value, key) => {
      form[key] = String(value);
    });
    return { method: request.method, url, headers: request.headers, body: undefined, form };
  }
  const text = await request.text();
  let body: unknown;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { method: request.method, url, headers: request.headers, body };
}

/** Answers `method url` with `answer` and records every request it gets. */
export function capture(server: SetupServer, method: Method, url: string, answer: Answer): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http[method](url, async ({ request }) => {
      const entry = await read(request);
      seen.push(entry);
      return answer(entry, seen.length - 1);
    }),
  );
  return seen;
}

/** Query parameters as an object of strings (repeated keys as arrays). */
export function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length > 1 ? all : (all[0] as string);
  }
  return out;
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

// --- recorded answers (test/fixtures/recorded-catalog) ---

export interface Recording {
  name: string;
  request: { method: string; url: string; headers: Record<string, string>; params: unknown };
  response: { status: number; headers: Record<string, string>; body_is_json: boolean; body: unknown };
}

const RECORDED_DIR = new URL('../../fixtures/recorded-catalog/', import.meta.url);

export function recordingNames(): string[] {
  return readdirSync(RECORDED_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

export function recording(name: string): Recording {
  const data = JSON.parse(readFileSync(new URL(`${name}.json`, RECORDED_DIR), 'utf8'));
  return { name, ...data };
}

/** The recordings write parameter names with a leading colon (`{ ":vote": { ":helpful": true } }`). */
export function unprefix(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unprefix);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/^:/, ''), unprefix(v)]));
  }
  return value;
}

/** What the recorded request sent: path, method, query (the URL's and, for reads, `params`) and body. */
export function expectedRequest(rec: Recording): { method: string; path: string; query: Record<string, string>; body: unknown } {
  const url = new URL(rec.request.url);
  const query: Record<string, string> = Object.fromEntries(url.searchParams);
  const params = unprefix(rec.request.params) as Record<string, unknown> | null;
  let body: unknown;
  if (rec.request.method === 'GET') {
    for (const [k, v] of Object.entries(params ?? {})) query[k] = String(v);
  } else {
    body = params ?? undefined;
  }
  return { method: rec.request.method, path: url.pathname, query, body };
}

/** An msw handler that answers the recorded request with the recorded answer (links moved to the test host). */
export function replay(server: SetupServer, rec: Recording): Seen[] {
  const url = new URL(rec.request.url);
  const headers = Object.fromEntries(
    Object.entries(rec.response.headers).map(([k, v]) => [k, v.split(RECORDED_HOST).join(BASE)]),
  );
  const method = rec.request.method.toLowerCase() as Method;
  return capture(server, method, `${BASE}${url.pathname}`, () =>
    rec.response.body === null || rec.response.status === 204
      ? new HttpResponse(null, { status: rec.response.status, headers })
      : HttpResponse.json(rec.response.body as Record<string, unknown>, { status: rec.response.status, headers }),
  );
}
