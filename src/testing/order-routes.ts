/**
 * The Orders API's HTTP routes over the stored orders (order-record.ts): get, accept, reject,
 * invoices, set_as_ready and its undo, tracking details, each checked as the service checks it
 * (order-checks.ts); and the files under the mock, which the service serves by signed link.
 */
import { checkAccept, checkReject, checkSetAsNotReady, checkSetAsReady, checkTracking, readInvoice } from './order-checks.js';
import type { MovableRecord } from './order-moves.js';
import type { OrdersContext, OrderStore } from './order-record.js';
import type { Route, RouteContext } from './router.js';
import type { MockOrder } from './types.js';
import { copy, json, readJsonBody, success } from './wire.js';

const ORDERS_PATH = '/merchants/ecommerce/orders/:code';
const VOUCHER_PDF = new TextEncoder().encode('%PDF-1.4\n% emporio mock courier voucher\n%%EOF\n');

/** The order as GET shows it with `?action_options=1` (order-moves.ts): `shown`, with the moves offered. */
type WithActionOptions = (shown: MockOrder, record: MovableRecord, url: URL) => MockOrder;

export function createOrderRoutes(context: OrdersContext, store: OrderStore, withActionOptions: WithActionOptions) {
  const { records, view, update, find, findForAction } = store;

  const getOrder = ({ params, url }: RouteContext): Response => {
    const record = find(params.code as string);
    return json(200, { order: withActionOptions(view(record), record, url) });
  };

  const accept = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = findForAction(params.code as string);
    const { windowId, address, parcels } = checkAccept(record.order, await readJsonBody(request));
    store.accept(record, windowId, address, parcels);
    return success();
  };

  const reject = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = findForAction(params.code as string);
    const reason = checkReject(record.order, await readJsonBody(request));
    if (reason !== undefined) record.order.rejection_info = { reason, actor: 'merchant' };
    update(record, { state: 'rejected' });
    return success();
  };

  const setAsReady = ({ params }: RouteContext): Response => {
    const record = findForAction(params.code as string);
    checkSetAsReady(record.order);
    update(record, { is_ready_for_dispatch: true });
    return success();
  };

  const setAsNotReady = ({ params }: RouteContext): Response => {
    const record = findForAction(params.code as string);
    checkSetAsNotReady(record.order);
    update(record, { is_ready_for_dispatch: false });
    return success();
  };

  const uploadInvoice = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = findForAction(params.code as string);
    const invoice = await readInvoice(request);
    record.invoices.push(invoice);
    record.order.uploaded_invoice_file = `${context.baseUrl()}/__mock/invoices/${encodeURIComponent(record.order.code)}/${record.invoices.length}/${encodeURIComponent(invoice.filename)}`;
    return success();
  };

  const sendTracking = async ({ request, params }: RouteContext): Promise<Response> => {
    const record = findForAction(params.code as string);
    const details = checkTracking(record.order, await readJsonBody(request));
    record.tracking.push(copy(details));
    return success();
  };

  const routes: Route[] = [
    { method: 'GET', pattern: ORDERS_PATH, api: 'orders', handler: getOrder },
    { method: 'POST', pattern: `${ORDERS_PATH}/accept`, api: 'orders', handler: accept },
    { method: 'POST', pattern: `${ORDERS_PATH}/reject`, api: 'orders', handler: reject },
    { method: 'POST', pattern: `${ORDERS_PATH}/invoices`, api: 'orders', handler: uploadInvoice },
    { method: 'POST', pattern: `${ORDERS_PATH}/set_as_ready`, api: 'orders', handler: setAsReady },
    { method: 'POST', pattern: `${ORDERS_PATH}/set_as_not_ready`, api: 'orders', handler: setAsNotReady },
    { method: 'POST', pattern: `${ORDERS_PATH}/tracking_details`, api: 'orders', handler: sendTracking },
  ];

  /** Invoices and vouchers under the mock: no auth, like the service's signed download links. */
  const serveFile = (pathname: string): Response | undefined => {
    const invoice = /^\/__mock\/invoices\/([^/]+)\/(\d+)\/[^/]+$/.exec(pathname);
    if (invoice) {
      const file = records.get(decodeURIComponent(invoice[1] as string))?.invoices[Number(invoice[2]) - 1];
      if (!file) return json(404, { errors: [{ code: 'not_found', messages: ['File not found'] }] });
      return new Response(file.bytes as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': file.contentType } });
    }
    const voucher = /^\/__mock\/vouchers\/([^/]+)\.pdf$/.exec(pathname);
    if (voucher) {
      const record = records.get(decodeURIComponent(voucher[1] as string));
      if (!record?.order.courier_voucher) return json(404, { errors: [{ code: 'not_found', messages: ['File not found'] }] });
      store.downloadVoucher(record);
      return new Response(VOUCHER_PDF, { headers: { 'Content-Type': 'application/pdf' } });
    }
    return undefined;
  };

  return { routes, serveFile };
}
