import { EmporioError } from '../core/errors.js';
import type { FeedIssue } from './types.js';

/** A product the feed writer refused (`onInvalid: 'throw'`): names the product, the attribute and the rule. */
export class FeedValidationError extends EmporioError {
  override name = 'FeedValidationError';
  /** The product's Unique ID, when it had one. */
  readonly productId: string | undefined;
  /** The first attribute that breaks a rule (`price`, `variations[0].ean`). */
  readonly attribute: string | undefined;
  /** The rule it breaks. */
  readonly rule: FeedIssue['rule'];
  /** Every rule the product breaks. */
  readonly issues: readonly FeedIssue[];

  constructor(issues: readonly FeedIssue[]) {
    const first = issues[0] ?? { line: 0, rule: 'required' as const, message: 'invalid product' };
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`product ${first.productId ?? '(no id)'}: ${first.message}${more}`);
    this.productId = first.productId;
    this.attribute = first.attribute;
    this.rule = first.rule;
    this.issues = issues;
  }
}
