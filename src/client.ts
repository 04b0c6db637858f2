import type { APIPromise } from './core/api-promise.js';
import { optionsFromEnv } from './core/env.js';
import { type ClientOptions, resolveOptions } from './core/options.js';
import type { RateLimitInfo } from './core/rate-limit.js';
import { type RequestOptions, Transport } from './core/transport.js';
import { Account } from './resources/account/index.js';
import { Catalog } from './resources/catalog/index.js';
import { Cps } from './resources/cps.js';
import { Fbs } from './resources/fbs.js';
import { checkKeys, type KeyReport } from './resources/keys.js';
import { LegacyV2 } from './resources/legacy-v2.js';
import { Orders } from './resources/orders/index.js';
import { Products } from './resources/products/index.js';
import { Returns } from './resources/returns.js';

/**
 * The marketplace API client. One instance per set of credentials; it is cheap to keep
 * and holds the shared state (rate-limit windows, remembered redirects, ETag cache).
 *
 * @example
 * const client = new MarketplaceClient({ baseUrl: 'https://api.example.gr', vendor: 'example', token });
 * const order = await client.orders.get('260330-1000001');
 */
export class MarketplaceClient {
  /** Orders API (the merchant API documentation): read, accept, reject, invoice, ready for pickup, tracking. */
  readonly orders: Orders;
  /** Products API (the merchant API documentation): bulk price, stock and availability updates. */
  readonly products: Products;
  /** Returns API: read a return, review one awaiting the merchant's decision; uses the orders token. */
  readonly returns: Returns;
  /** FBS warehouse API (the FBS API documentation): stock, purchase orders, suppliers; uses the orders token. */
  readonly fbs: Fbs;
  /** CPS orders API (the CPS API documentation): read and reject pay-per-sale orders with `tokens.cps`. */
  readonly cps: Cps;
  /** Catalog API v3 (the Catalog API documentation). */
  readonly catalog: Catalog;
  /** User-account resources (the Account API documentation): favorites, profile, addresses, saved orders, notifications. */
  readonly account: Account;
  /**
   * The legacy v2 interface (the Account API documentation).
   * @deprecated The service deprecated v2 in favour of v3: use `catalog` and `account`.
   */
  readonly legacyV2: LegacyV2;
  readonly #transport: Transport;

  constructor(options: ClientOptions) {
    this.#transport = new Transport(resolveOptions(options));
    this.orders = new Orders(this.#transport);
    this.products = new Products(this.#transport);
    this.returns = new Returns(this.#transport);
    this.fbs = new Fbs(this.#transport);
    this.cps = new Cps(this.#transport);
    this.catalog = new Catalog(this.#transport);
    this.account = new Account(this.#transport);
    this.legacyV2 = new LegacyV2(this.#transport);
  }

  /**
   * A client configured from the environment, as `emporio check-keys` reads it:
   * `EMPORIO_BASE_URL` (`baseUrl`), `EMPORIO_VENDOR` (`vendor`), `EMPORIO_TOKEN` (`token`, the
   * default of every API) and `EMPORIO_ORDERS_TOKEN`, `EMPORIO_PRODUCTS_TOKEN`,
   * `EMPORIO_CPS_TOKEN` (`tokens.orders`, `.products`, `.cps`). Blank counts as unset.
   * `overrides` win over the environment (its `tokens` key by key); a missing base URL,
   * vendor or token is a `TypeError` naming the variable.
   *
   * @example
   * // EMPORIO_BASE_URL=https://api.example.gr EMPORIO_VENDOR=example EMPORIO_ORDERS_TOKEN=... node app.js
   * const client = MarketplaceClient.fromEnv({ timeout: 10_000 });
   */
  static fromEnv(overrides?: Partial<ClientOptions>): MarketplaceClient {
    return new MarketplaceClient(optionsFromEnv(overrides));
  }

  /**
   * Tries each merchant key the client has (orders, products, cps) once, with a call that
   * changes nothing: the orders key reads the sandbox order `DEMO-OPEN`, the products key
   * sends one validation request (which applies nothing), the cps key reads an order. Run it after generating a new key
   * in the merchant panel: a new key expires the old one. Resolves even when every key is
   * refused; rejects only when `options.signal` aborts.
   */
  checkKeys(options?: RequestOptions): Promise<KeyReport> {
    return checkKeys(
      {
        orders: (tried) => requestIdOf(this.orders.get('DEMO-OPEN', tried)),
        products: (tried) => requestIdOf(this.products.validateBatch([KEY_CHECK_UPDATE], tried)),
        // No sandbox order there: the answer to an unknown code (404) is enough to tell the key was accepted.
        cps: (tried) => requestIdOf(this.cps.get('DEMO-OPEN', tried)),
      },
      (api) => this.#transport.hasToken(api),
      options,
    );
  }

  /** The latest `X-RateLimit-*` figures seen (reset in epoch seconds), or undefined before any answer carried them. */
  get rateLimit(): RateLimitInfo | undefined {
    const latest = this.#transport.rateLimiter.latest;
    return latest && { ...latest };
  }
}

/** The update the products key check validates: a product no shop lists, and validation applies nothing anyway. */
const KEY_CHECK_UPDATE = { product_id: 'emporio-key-check', quantity: 0, enabled: false, price: 100 };

const requestIdOf = (call: APIPromise<unknown>): Promise<string | undefined> => call.withResponse().then(({ response }) => response.requestId);
