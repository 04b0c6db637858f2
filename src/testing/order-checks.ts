/**
 * The checks the Orders API makes of a request, each throwing the refusal the service answers
 * (wire.ts `fail`) and returning what the action needs of the body. Codes and messages the
 * documentation leaves out ("not shown") are chosen here and listed in the kit's documentation
 * (/tmp/mock-api.md, README): `invalid_format` 400 for a malformed body, `invalid_option` 422 for a
 * value outside the order's options, `order_status` 422 for a state that forbids the action,
 * `order_error` 422 for non-FBM tracking. Express accepts answer the service's own 422
 * `order_status` "Order is express".
 */
import { fulfilmentOf, MARKETPLACE_COURIER, type TrackingDetail } from './order-record.js';
import type { MockOrder } from './types.js';
import { fail, parseMediaType } from './wire.js';

const MAX_INVOICE_BYTES = 7 * 1024 * 1024;

/** An accept body's choice among the order's accept_options. */
export function checkAccept(order: MockOrder, body: Record<string, unknown>): { windowId: number; address: string; parcels: number } {
  const problems: string[] = [];
  const { pickup_location: location, pickup_window: window, number_of_parcels: parcels = 1 } = body;
  if (location === undefined) problems.push("Missing required field 'pickup_location'");
  else if (typeof location !== 'string') problems.push("Field 'pickup_location' has invalid type");
  if (window === undefined) problems.push("Missing required field 'pickup_window'");
  else if (!Number.isInteger(window)) problems.push("Field 'pickup_window' has invalid type");
  if (!Number.isInteger(parcels) || (parcels as number) < 1) problems.push("Field 'number_of_parcels' has invalid type");
  if (problems.length > 0) fail(400, 'invalid_format', ...problems);

  if (order.state === 'accepted') fail(422, 'order_status', 'Order already accepted.');
  if (order.state !== 'open') fail(422, 'order_status', `Order cannot be accepted in state '${order.state}'.`);
  // Express orders are accepted by an automated mechanism, never through the API.
  if (order.express) fail(422, 'order_status', 'Order is express');
  const options = order.accept_options;
  const place = options?.pickup_location?.find((l) => l.id === location);
  if (!place) fail(422, 'invalid_option', `pickup_location '${String(location)}' is not one of the order's accept_options.`);
  if (!options?.pickup_window?.some((w) => w.id === window)) {
    fail(422, 'invalid_option', `pickup_window ${String(window)} is not one of the order's accept_options.`);
  }
  const allowedParcels = options?.number_of_parcels ?? [];
  if (allowedParcels.length > 0 && !allowedParcels.includes(parcels as number)) {
    fail(422, 'invalid_option', `number_of_parcels ${String(parcels)} is not one of the order's accept_options.`);
  }
  return { windowId: window as number, address: place?.label ?? '', parcels: parcels as number };
}

/** A reject body: line items with the order's reasons, or a reason of the merchant's own, which it returns. */
export function checkReject(order: MockOrder, body: Record<string, unknown>): string | undefined {
  const { line_items: items, rejection_reason_other: other } = body;
  if ((items === undefined) === (other === undefined)) {
    fail(400, 'invalid_format', 'Provide either line_items or rejection_reason_other.');
  }
  const problems: string[] = [];
  if (other !== undefined && (typeof other !== 'string' || other.trim() === '')) {
    problems.push("Field 'rejection_reason_other' has invalid type");
  }
  if (items !== undefined) {
    if (!Array.isArray(items) || items.length === 0) problems.push("Field 'line_items' has invalid type");
    else problems.push(...items.flatMap((item: unknown, index) => lineItemProblems(item, index)));
  }
  if (problems.length > 0) fail(400, 'invalid_format', ...problems);

  if (order.state === 'rejected') fail(422, 'order_status', 'Order already rejected.');
  if (order.state !== 'open') fail(422, 'order_status', `Order cannot be rejected in state '${order.state}'.`);
  if (Array.isArray(items)) {
    const reasons = order.reject_options?.line_item_rejection_reasons ?? [];
    for (const item of items as { id: string; reason_id: number; available_quantity?: number | undefined }[]) {
      if (!order.line_items?.some((line) => line.id === item.id)) {
        fail(422, 'invalid_option', `Line item '${item.id}' is not part of this order.`);
      }
      const reason = reasons.find((r) => r.id === item.reason_id);
      if (!reason) fail(422, 'invalid_option', `Rejection reason ${item.reason_id} is not one of the order's reject_options.`);
      if (reason?.requires_available_quantity && item.available_quantity === undefined) {
        fail(422, 'invalid_option', `Line item '${item.id}': rejection reason ${item.reason_id} requires available_quantity.`);
      }
    }
  }
  return typeof other === 'string' ? other : undefined;
}

function lineItemProblems(entry: unknown, index: number): string[] {
  if (typeof entry !== 'object' || entry === null) return [`Line item ${index}: has invalid type`];
  const item = entry as Record<string, unknown>;
  const label = typeof item.id === 'string' ? `Line item ${item.id}` : `Line item ${index}`;
  const problems: string[] = [];
  if (item.id === undefined) problems.push(`${label}: Missing required field 'id'`);
  else if (typeof item.id !== 'string') problems.push(`${label}: Field 'id' has invalid type`);
  if (item.reason_id === undefined) problems.push(`${label}: Missing required field 'reason_id'`);
  else if (!Number.isInteger(item.reason_id)) problems.push(`${label}: Field 'reason_id' has invalid type`);
  const available = item.available_quantity;
  if (available !== undefined && (!Number.isInteger(available) || (available as number) < 0)) {
    problems.push(`${label}: Field 'available_quantity' has invalid type`);
  }
  return problems;
}

/** set_as_ready: an accepted core order of the marketplace's courier, not yet ready. */
export function checkSetAsReady(order: MockOrder): void {
  const eligible =
    order.state === 'accepted' &&
    order.is_ready_for_dispatch !== true &&
    order.courier === MARKETPLACE_COURIER &&
    fulfilmentOf(order) === 'core';
  if (!eligible) fail(422, 'order_error', 'Order is not eligible to be marked as ready');
}

/** set_as_not_ready: an order marked ready that the marketplace's courier has not picked up. */
export function checkSetAsNotReady(order: MockOrder): void {
  // State accepted also means "not yet picked up": pickup moves the order to dispatched.
  const eligible =
    order.state === 'accepted' && order.is_ready_for_dispatch === true && order.courier === MARKETPLACE_COURIER;
  if (!eligible) fail(422, 'order_error', 'Order is not eligible for undo');
}

/** An invoice upload: a PDF, PNG or JPEG of 7 MB at most in the `invoice_file` field of a multipart form. */
export async function readInvoice(request: Request): Promise<{ filename: string; contentType: string; bytes: Uint8Array<ArrayBuffer> }> {
  if (parseMediaType(request.headers.get('content-type'))?.type !== 'multipart/form-data') {
    fail(415, 'unsupported_media_type', 'Content-Type must be multipart/form-data.');
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return fail(400, 'invalid_format', 'Request body is not valid multipart/form-data.');
  }
  const file = form.get('invoice_file');
  if (file === null || typeof file === 'string') fail(400, 'invalid_format', "Missing required file field 'invoice_file'");
  const blob = file as File;
  if (blob.size > MAX_INVOICE_BYTES) fail(422, 'invalid_file', 'Invoice file exceeds the maximum size of 7 MB.');
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const kind = sniffInvoiceType(bytes);
  if (!kind) fail(422, 'invalid_file', 'Invoice file type must be pdf, png or jpg.');
  const extension = kind === 'application/pdf' ? 'pdf' : kind === 'image/png' ? 'png' : 'jpg';
  const filename = safeFilename(blob.name) || `invoice.${extension}`;
  return { filename, contentType: kind as string, bytes };
}

/** PDF, PNG or JPEG by magic bytes, whatever the filename says. */
export function sniffInvoiceType(bytes: Uint8Array): 'application/pdf' | 'image/png' | 'image/jpeg' | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  return undefined;
}

const safeFilename = (name: string | undefined) => (name ?? '').replace(/[^\w.-]+/g, '_').slice(0, 100);

/** Tracking details: a non-empty list of couriers and codes, for an accepted or dispatched order the merchant ships. */
export function checkTracking(order: MockOrder, body: Record<string, unknown>): TrackingDetail[] {
  const list = body.tracking_details;
  if (!Array.isArray(list) || list.length === 0) fail(400, 'invalid_format', "Field 'tracking_details' must be a non-empty array");
  const problems: string[] = [];
  (list as unknown[]).forEach((entry, index) => {
    const item = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    for (const field of ['courier', 'tracking_code']) {
      const value = item[field];
      if (value === undefined) problems.push(`Tracking detail ${index}: Missing required field '${field}'`);
      else if (typeof value !== 'string' || value === '') problems.push(`Tracking detail ${index}: Field '${field}' has invalid type`);
    }
  });
  if (problems.length > 0) fail(400, 'invalid_format', ...problems);
  if (fulfilmentOf(order) !== 'fbm') {
    fail(422, 'order_error', 'Tracking details can be sent only for orders fulfilled by the merchant.');
  }
  if (order.state !== 'accepted' && order.state !== 'dispatched') {
    fail(422, 'order_error', 'Order is not eligible for tracking details');
  }
  return list as TrackingDetail[];
}
