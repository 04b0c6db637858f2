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
 * Checks one product read from a feed: its issues go to the report, each at the line of the
 * attribute it is about (`lines`, by attribute), else at the product's.
 */
export function finishProduct(
  context: ReadContext,
  raw: Record<string, unknown>,
  mode: RuleMode,
  line: number,
  lines: Record<string, number>,
): void {
  const lists = context.lists;
  lists.errors.length = 0;
  lists.warnings.length = 0;
  const product = checkProduct(raw, mode, lists, line, context.ids);
  if (lists.errors.length > 0 || lists.warnings.length > 0) {
    for (const issue of lists.errors) if (issue.attribute !== undefined) issue.line = lines[issue.attribute] ?? line;
    for (const issue of lists.warnings) if (issue.attribute !== undefined) issue.line = lines[issue.attribute] ?? line;
    context.builder.add(lists);
  }
  context.builder.report.products++;
  if (product !== undefined) {
    const room = context.onProduct?.(product, line);
    if (room instanceof Promise) context.room = room;
  }
}
