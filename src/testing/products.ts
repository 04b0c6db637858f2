/**
 * The Products API of the merchant API documentation: batch and batch/validations (the service today) with the exact 400/422 bodies,
 * a toggleable shop state, and the inventory the batches applied. A batch is answered at once with
 * its `id`; its per-product results (`success`, `no_change`, `failure` for a product the shop's
 * catalogue lacks) show in `GET batch/:id/status` after `batchDelayMs` of the mock's clock.
 */
import type { Route, RouteContext } from './router.js';
import type { InventoryItem, InventoryVariation } from './types.js';
import { fail, json, readJsonBody, timestamp } from './wire.js';

export const MAX_BATCH = 500;
export type ShopState = 'ok' | 'scanning_xml' | 'invalid';

const SHOP_STATE_MESSAGES: Record<Exclude<ShopState, 'ok'>, string> = {
  invalid: 'Shop is not in a valid state to perform this action.',
  scanning_xml: 'We are currently scanning your XML. Please try again later.',
};

export interface BatchRecord {
  validateOnly: boolean;
  size: number;
  /** The answer's status: 200 applied (or validated), otherwise the error's status. */
  status: number;
  /** The batch id the answer carried (taken batches only). */
  id?: string | undefined;
}

/** What a product or variation of a batch came to, shown once the batch is done. */
interface ItemOutcome {
  status: 'success' | 'no_change' | 'failure';
  message: string | null;
}

interface TakenBatch {
  id: string;
  createdAt: number;
  results: { product_id: string; outcome: ItemOutcome; variations?: { variation_id: string; outcome: ItemOutcome }[] | undefined }[];
}

/** Batches kept for status reads; older ones are forgotten (404), as a service forgets old batches. */
const KEPT_BATCHES = 1_000;
/** Why a product the catalogue lacks fails (the service's wording is not documented). */
const UNKNOWN_PRODUCT = 'Product not found in the shop catalogue';

export interface ProductsContext {
  now: () => number;
  /** How long (mock clock ms) a batch stays `in_progress`. */
  batchDelayMs: number;
}

export function createProducts(context: ProductsContext = { now: Date.now, batchDelayMs: 0 }) {
  const inventory = new Map<string, InventoryItem>();
  const batches: BatchRecord[] = [];
  const taken = new Map<string, TakenBatch>();
  let batchCounter = 0;
  let batchDelayMs = context.batchDelayMs;
  /** The shop's catalogue: product ids the Products API knows; undefined: every id but `UNKNOWN-*`. */
  let catalogue: Set<string> | undefined;
  const known = (id: string) => (catalogue ? catalogue.has(id) : !id.startsWith('UNKNOWN-'));
  let shopState: ShopState = 'ok';
  /** Requests left before the shop state returns to ok; undefined: until changed. */
  let stateRequestsLeft: number | undefined;

  const currentShopState = (): ShopState => {
    if (shopState === 'ok' || stateRequestsLeft === undefined) return shopState;
    if (stateRequestsLeft <= 0) {
      shopState = 'ok';
      stateRequestsLeft = undefined;
      return 'ok';
    }
    stateRequestsLeft--;
    return shopState;
  };

  const handle = (validateOnly: boolean) => async ({ request }: RouteContext): Promise<Response> => {
    let size = 0;
    try {
      const body = await readJsonBody(request);
      let data = body.data;
      // The documented validation sample sends one object rather than an array: accepted there only.
      if (validateOnly && typeof data === 'object' && data !== null && !Array.isArray(data)) data = [data];
      if (!Array.isArray(data)) return fail(400, 'invalid_format', 'Expected an array of product updates.');
      size = data.length;
      if (data.length > MAX_BATCH) fail(400, 'invalid_batch_size', `Batch size exceeds the maximum limit of ${MAX_BATCH}.`);
      const problems = data.flatMap(updateProblems);
      if (problems.length > 0) fail(400, 'invalid_format', ...problems);
      const state = currentShopState();
      if (state !== 'ok') fail(422, 'invalid_shop_state', SHOP_STATE_MESSAGES[state]);
      if (validateOnly) {
        batches.push({ validateOnly, size, status: 200 });
        return json(200, { success: true, message: 'All validations passed successfully.' });
      }
      const batch = take(data as InventoryItem[]);
      batches.push({ validateOnly, size, status: 200, id: batch.id });
      return json(200, { success: true, id: batch.id });
    } catch (error) {
      const status = (error as { status?: number | undefined }).status;
      if (typeof status === 'number') batches.push({ validateOnly, size, status });
      throw error;
    }
  };

  /** Applies what the catalogue knows and notes each product's outcome, shown after the delay. */
  const take = (updates: InventoryItem[]): TakenBatch => {
    // 24 hex characters, as the recorded id.
    const id = `6a9810dc${(++batchCounter).toString(16).padStart(16, '0')}`;
    const batch: TakenBatch = { id, createdAt: context.now(), results: [] };
    for (const update of updates) {
      if (!known(update.product_id)) {
        const failed: ItemOutcome = { status: 'failure', message: UNKNOWN_PRODUCT };
        const variations = update.variations?.map((v) => ({ variation_id: v.variation_id, outcome: failed }));
        batch.results.push({ product_id: update.product_id, outcome: failed, ...(variations ? { variations } : {}) });
        continue;
      }
      const previous = inventory.get(update.product_id);
      const same = previous !== undefined && previous.quantity === update.quantity && previous.enabled === update.enabled && previous.price === update.price;
      const variations = update.variations?.map((v) => {
        const before = previous?.variations?.find((p) => p.variation_id === v.variation_id);
        return { variation_id: v.variation_id, outcome: changeOf(before, v) };
      });
      batch.results.push({
        product_id: update.product_id,
        outcome: { status: same ? 'no_change' : 'success', message: null },
        ...(variations ? { variations } : {}),
      });
      apply(update);
    }
    taken.set(id, batch);
    if (taken.size > KEPT_BATCHES) taken.delete(taken.keys().next().value as string);
    return batch;
  };

  const batchStatus = ({ params }: RouteContext): Response => {
    const batch = taken.get(params.id as string);
    if (!batch) return fail(404, 'not_found', 'Batch not found.');
    const doneAt = batch.createdAt + batchDelayMs;
    const done = context.now() >= doneAt;
    const shown = (outcome: ItemOutcome) =>
      done
        ? { status: outcome.status, message: outcome.message, executed_at: timestamp(doneAt) }
        : { status: 'in_progress', message: null, executed_at: null };
    return json(200, {
      id: batch.id,
      status: done ? 'completed' : 'in_progress',
      created_at: timestamp(batch.createdAt),
      results: batch.results.map((result) => ({
        product_id: result.product_id,
        ...shown(result.outcome),
        ...(result.variations ? { variations: result.variations.map((v) => ({ variation_id: v.variation_id, ...shown(v.outcome) })) } : {}),
      })),
    });
  };

  const apply = (update: InventoryItem) => {
    const previous = inventory.get(update.product_id);
    let variations = previous?.variations;
    if (update.variations) {
      const merged = new Map((variations ?? []).map((v) => [v.variation_id, v]));
      for (const v of update.variations) {
        merged.set(v.variation_id, { variation_id: v.variation_id, quantity: v.quantity, enabled: v.enabled, price: v.price });
      }
      variations = [...merged.values()];
    }
    const item: InventoryItem = {
      product_id: update.product_id,
      quantity: update.quantity,
      enabled: update.enabled,
      price: update.price,
      updates: (previous?.updates ?? 0) + 1,
    };
    if (variations) item.variations = variations;
    inventory.set(update.product_id, item);
  };

  const routes: Route[] = [
    { method: 'POST', pattern: '/merchants/products/batch', api: 'products', handler: handle(false) },
    // Moved from /merchants/products/validate_batch_payload on 2026-04-29 (spec/4 section 3).
    { method: 'POST', pattern: '/merchants/products/batch/validations', api: 'products', handler: handle(true) },
    { method: 'GET', pattern: '/merchants/products/batch/:id/status', api: 'products', handler: batchStatus },
  ];

  const kit = {
    /**
     * 'scanning_xml' and 'invalid' make batch and validate answer 422 invalid_shop_state;
     * with `{ requests: n }` the state lasts for the next n Products API requests only.
     */
    setShopState(state: ShopState, { requests }: { requests?: number | undefined } = {}): void {
      shopState = state;
      stateRequestsLeft = state === 'ok' ? undefined : requests;
    },
    get shopState(): ShopState {
      return shopState;
    },
    /** Every batch or validate request that got past the protocol checks, with its outcome. */
    batches: batches as readonly BatchRecord[],
    /**
     * The shop's catalogue: only these product ids are updated; any other fails in the batch's
     * results. Without it (the default, or `undefined`), every id but those starting `UNKNOWN-` is known.
     */
    setCatalogue(ids: Iterable<string> | undefined): void {
      catalogue = ids === undefined ? undefined : new Set(ids);
    },
    /** How long (mock clock ms) a batch stays `in_progress` before its results show. */
    setBatchDelay(ms: number): void {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('setBatchDelay(ms) needs a non-negative number');
      batchDelayMs = ms;
    },
    /** Empties the inventory (the batch log and the batches' results too). */
    reset(): void {
      inventory.clear();
      batches.length = 0;
      taken.clear();
    },
  };

  return { routes, kit, inventory: inventory as ReadonlyMap<string, InventoryItem> };
}

/** A variation's outcome against what the inventory held. */
function changeOf(before: InventoryVariation | undefined, after: InventoryVariation): ItemOutcome {
  const same = before !== undefined && before.quantity === after.quantity && before.enabled === after.enabled && before.price === after.price;
  return { status: same ? 'no_change' : 'success', message: null };
}

const TYPES = { product_id: 'string', quantity: 'count', enabled: 'boolean', price: 'count' } as const;
const VARIATION_TYPES = { variation_id: 'string', quantity: 'count', enabled: 'boolean', price: 'count' } as const;

const hasType = (value: unknown, type: 'string' | 'count' | 'boolean') =>
  type === 'count' ? Number.isInteger(value) && (value as number) >= 0 : type === 'string' ? typeof value === 'string' && value !== '' : typeof value === type;

/** The documentation's messages: `Missing required field 'product_id'`, `Product <id>: Field 'price' has invalid type`... */
function updateProblems(entry: unknown): string[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return ['Expected an array of product updates.'];
  const update = entry as Record<string, unknown>;
  if (update.product_id === undefined) return ["Missing required field 'product_id'"];
  if (!hasType(update.product_id, 'string')) return ["Field 'product_id' has invalid type"];
  const prefix = `Product ${update.product_id as string}: `;
  const problems = fieldProblems(update, TYPES, prefix);
  if (update.variations !== undefined) {
    if (!Array.isArray(update.variations)) problems.push(`${prefix}Field 'variations' has invalid type`);
    else {
      for (const raw of update.variations as unknown[]) {
        const variation = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
        const label = typeof variation.variation_id === 'string' ? `Variation ${variation.variation_id}: ` : prefix;
        problems.push(...fieldProblems(variation, VARIATION_TYPES, label));
      }
    }
  }
  return problems;
}

function fieldProblems(
  entry: Record<string, unknown>,
  types: Record<string, 'string' | 'count' | 'boolean'>,
  prefix: string,
): string[] {
  const problems: string[] = [];
  for (const [field, type] of Object.entries(types)) {
    if (entry[field] === undefined) problems.push(`${prefix}Missing required field '${field}'`);
    else if (!hasType(entry[field], type)) problems.push(`${prefix}Field '${field}' has invalid type`);
  }
  return problems;
}

