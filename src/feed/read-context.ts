/** What the XML and CSV readers share while checking one feed. */
import type { IdSet } from './id-set.js';
import type { ReportBuilder } from './output.js';
import { checkProduct, type IssueLists, type RuleMode } from './rules.js';
import type { WrittenProduct } from './values.js';
import type { FeedIssue } from './types.js';

/** A product as read from a feed and found valid: every value a string in the writer's format. */
export type CheckedProduct = WrittenProduct;

export interface ReadContext {
  builder: ReportBuilder;
  ids: IdSet;
  onProduct: ((product: CheckedProduct, line: number) => unknown) | undefined;
  /** What `onProduct` last asked to wait for, awaited before the next chunk is read. */
  room?: Promise<void> | undefined;
  /** Names already warned about, so a feed of a million products says each thing once. */
  said: Set<string>;
  /** One product's issues, reused product after product. */
  lists: IssueLists;
}

const MAX_REMEMBERED = 500;

/** A warning given once per feed for each `key`. */
export function warnOnce(context: ReadContext, key: string, issue: FeedIssue): void {
  if (context.said.has(key)) return;
  if (context.said.size < MAX_REMEMBERED) context.said.add(key);
  context.builder.warning(issue);
}

/**
 * The line of each attribute of the product being read, looked up only when the product has an
 * issue: two arrays filled as its fields close, emptied per product (a record per product cost a
 * store under a new key for every field, a tenth of the check's time).
 */
export class AttributeLines {
  readonly #names: string[] = [];
  readonly #lines: number[] = [];

  set(attribute: string, line: number): void {
    this.#names.push(attribute);
    this.#lines.push(line);
  }

  /** The line of the attribute's last occurrence (the value read is the first's; its line, as before, the last's). */
  get(attribute: string): number | undefined {
    const at = this.#names.lastIndexOf(attribute);
    return at === -1 ? undefined : this.#lines[at];
  }

  clear(): void {
    if (this.#names.length === 0) return;
    this.#names.length = 0;
    this.#lines.length = 0;
  }
}

/**
 * Checks one product read from a feed: its issues go to the report, each at the line of the
 * attribute it is about (`lines`, by attribute), else at the product's.
 */
export function finishProduct(
  context: ReadContext,
  raw: Record<string, unknown>,
  mode: RuleMode,
  line: number,
  lines: AttributeLines,
): void {
  const lists = context.lists;
  // Emptied only when filled: setting an array's length is a call into the engine, per product.
  if (lists.errors.length > 0) lists.errors.length = 0;
  if (lists.warnings.length > 0) lists.warnings.length = 0;
  const product = checkProduct(raw, mode, lists, line, context.ids);
  if (lists.errors.length > 0 || lists.warnings.length > 0) {
    for (const issue of lists.errors) if (issue.attribute !== undefined) issue.line = lines.get(issue.attribute) ?? line;
    for (const issue of lists.warnings) if (issue.attribute !== undefined) issue.line = lines.get(issue.attribute) ?? line;
    context.builder.add(lists);
  }
  context.builder.report.products++;
  if (product !== undefined) {
    const room = context.onProduct?.(product, line);
    if (room instanceof Promise) context.room = room;
  }
}
