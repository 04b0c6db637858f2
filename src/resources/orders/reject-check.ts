import type { ValidationIssue } from '../../core/errors.js';
import type { Order, RejectOptions, RejectParams } from '../../schemas/order.js';

/**
 * Checks a line-item rejection against what the order offered, so that the service's
 * refusal is caught before sending: every `reason_id` must be one of
 * `reject_options.line_item_rejection_reasons`, a reason with
 * `requires_available_quantity: true` needs `available_quantity`, and (when the order's
 * line items are known) every `id` must be one of them.
 */
export function checkRejection(
  params: RejectParams,
  order: Pick<Order, 'line_items' | 'reject_options'> | undefined,
  rejectOptions: RejectOptions | null | undefined,
): ValidationIssue[] {
  if (!('line_items' in params)) return [];
  const reasons = (rejectOptions ?? order?.reject_options)?.line_item_rejection_reasons;
  const lineItemIds = order?.line_items ? new Set(order.line_items.map((item) => item.id)) : undefined;
  const issues: ValidationIssue[] = [];
  params.line_items.forEach((item, i) => {
    if (lineItemIds && !lineItemIds.has(item.id)) {
      issues.push({ path: ['line_items', i, 'id'], message: `the order has no line item ${JSON.stringify(item.id)}` });
    }
    if (!reasons) return;
    const reason = reasons.find((r) => r.id === item.reason_id);
    if (!reason) {
      const known = reasons.map((r) => r.id).join(', ');
      issues.push({ path: ['line_items', i, 'reason_id'], message: `unknown reason id ${item.reason_id} (offered: ${known})` });
    } else if (reason.requires_available_quantity === true && item.available_quantity === undefined) {
      issues.push({
        path: ['line_items', i, 'available_quantity'],
        message: `reason ${item.reason_id} (${reason.label ?? 'no label'}) requires available_quantity`,
      });
    }
  });
  return issues;
}
