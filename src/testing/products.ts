/**
 * The Products API of the merchant API documentation: batch and batch/validations (the service today) with the exact 400/422 bodies,
 * a toggleable shop state, and the inventory the batches applied (all of a batch or none of it).
 */
import type { Route, RouteContext } from './router.js';
import type { InventoryItem } from './types.js';
import { fail, json, readJsonBody, success } from './wire.js';

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
}

export function createProducts() {
  const inventory = new Map<string, InventoryItem>();
  const batches: BatchRecord[] = [];
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
      batches.push({ validateOnly, size, status: 200 });
      if (validateOnly) return json(200, { success: true, message: 'All validations passed successfully.' });
      for (const update of data as InventoryItem[]) apply(update);
      return success();
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (typeof status === 'number') batches.push({ validateOnly, size, status });
      throw error;
    }
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
  ];

  const kit = {
    /**
     * 'scanning_xml' and 'invalid' make batch and validate answer 422 invalid_shop_state;
     * with `{ requests: n }` the state lasts for the next n Products API requests only.
     */
    setShopState(state: ShopState, { requests }: { requests?: number } = {}): void {
      shopState = state;
      stateRequestsLeft = state === 'ok' ? undefined : requests;
    },
    get shopState(): ShopState {
      return shopState;
    },
    /** Every batch or validate request that got past the protocol checks, with its outcome. */
    batches: batches as readonly BatchRecord[],
    /** Empties the inventory (the batch log too). */
    reset(): void {
      inventory.clear();
      batches.length = 0;
    },
  };

  return { routes, kit, inventory: inventory as ReadonlyMap<string, InventoryItem> };
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

