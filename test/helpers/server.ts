import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { MarketplaceClient } from 'emporio';
import type { ClientOptions } from 'emporio';

export const BASE = 'https://api.marketplace.test';
export const TOKEN = 'tok_SECRET_orders_7f3a9c';

/** One msw server per test file; handlers are added per test. Unhandled requests fail the test. */
export function useMswServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export function makeClient(overrides: Partial<ClientOptions> = {}): MarketplaceClient {
  return new MarketplaceClient({ baseUrl: BASE, vendor: 'marketplace', token: TOKEN, ...overrides });
}

/** A logger that keeps every line, for asserting on what the SDK says. */
export function recordingLogger() {
  const lines: string[] = [];
  const sink = (message: string, details?: Record<string, unknown>) => {
    lines.push(details ? `${message} ${JSON.stringify(details)}` : message);
  };
  return { lines, logger: { debug: sink, info: sink, warn: sink, error: sink } };
}
