import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ACCEPT_V3 = 'application/vnd.marketplace+json; version=3.0';

export function merchantHeaders(token = 'test-orders-token', extra: Record<string, string> = {}): Record<string, string> {
  return { Accept: ACCEPT_V3, Authorization: `Bearer ${token}`, ...extra };
}

export function jsonHeaders(token = 'test-orders-token'): Record<string, string> {
  return merchantHeaders(token, { 'Content-Type': 'application/json; charset=utf-8' });
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on loopback that answers each delivery with the next status of `statuses` (then the last one). */
export async function startReceiver(answer: (index: number) => number | 'hang' = () => 200) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const index = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = answer(index);
      if (status === 'hang') return; // never answers: the sender's time-out fires
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

export function invoiceForm(bytes: Uint8Array, filename = 'invoice.pdf', field = 'invoice_file'): FormData {
  const form = new FormData();
  form.append(field, new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
  return form;
}
