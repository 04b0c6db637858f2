import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestValidationError } from 'emporio';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, TOKEN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const client = makeClient({ maxRetries: 0 });
const URL_ = `${BASE}/merchants/ecommerce/orders/260330-7/invoices`;
const MiB = 1024 * 1024;

const MAGIC = {
  pdf: [...'%PDF-1.7\n'].map((c) => c.charCodeAt(0)),
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpg: [0xff, 0xd8, 0xff, 0xe0],
} as const;
const MIME = { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg' } as const;

/** A file of `size` bytes that starts with `magic`, the rest a recognisable pattern. */
function bytesOf(magic: readonly number[], size = 64): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = i < magic.length ? (magic[i] as number) : i % 251;
  return bytes;
}

interface Received {
  contentType: string | null;
  authorization: string | null;
  accept: string | null;
  field: string;
  filename: string;
  type: string;
  bytes: Uint8Array;
  otherFields: string[];
}

function invoiceEndpoint() {
  const received: Received[] = [];
  server.use(
    http.post(URL_, async ({ request }) => {
      const contentType = request.headers.get('content-type');
      const form = await request.formData();
      const file = form.get('invoice_file');
      if (!(file instanceof File)) return HttpResponse.json({ errors: [{ code: 'invalid', messages: ['no file'] }] }, { status: 400 });
      received.push({
        contentType,
        authorization: request.headers.get('authorization'),
        accept: request.headers.get('accept'),
        field: 'invoice_file',
        filename: file.name,
        type: file.type,
        bytes: new Uint8Array(await file.arrayBuffer()),
        otherFields: [...form.keys()].filter((k) => k !== 'invoice_file'),
      });
      return HttpResponse.json({ success: true, uploaded_invoice_file: 'https://files.test/invoice.pdf' });
    }),
  );
  return received;
}

const forms = {
  Blob: (b: Uint8Array<ArrayBuffer>) => new Blob([b]),
  Uint8Array: (b: Uint8Array<ArrayBuffer>) => b,
  Buffer: (b: Uint8Array<ArrayBuffer>) => Buffer.from(b),
  ArrayBuffer: (b: Uint8Array<ArrayBuffer>) => b.buffer,
} as const;

describe('orders.uploadInvoice', () => {
  const matrix = (['pdf', 'png', 'jpg'] as const).flatMap((kind) =>
    (Object.keys(forms) as (keyof typeof forms)[]).map((form) => ({ kind, form })),
  );

  it.each(matrix)('sends a $kind given as $form in the multipart field invoice_file', async ({ kind, form }) => {
    const received = invoiceEndpoint();
    const bytes = bytesOf(MAGIC[kind], 4096);
    const answer = await client.orders.uploadInvoice('260330-7', forms[form](bytes));
    expect(answer).toEqual({ success: true, uploaded_invoice_file: 'https://files.test/invoice.pdf' });
    expect(received).toHaveLength(1);
    const [got] = received as [Received];
    expect(got.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(got.authorization).toBe(`Bearer ${TOKEN}`);
    expect(got.accept).toBe('application/vnd.marketplace+json; version=3.0');
    expect(got.filename).toBe(`invoice.${kind}`);
    expect(got.type).toBe(MIME[kind]);
    expect(got.bytes).toEqual(bytes);
    expect(got.otherFields).toEqual([]);
  });

  it('decides the type from the bytes, whatever the name or Blob type says', async () => {
    const received = invoiceEndpoint();
    const pdf = bytesOf(MAGIC.pdf);
    await client.orders.uploadInvoice('260330-7', new File([pdf], 'scan.png', { type: 'image/png' }));
    await client.orders.uploadInvoice('260330-7', pdf, { filename: 'INV-2026-001.pdf' });
    await client.orders.uploadInvoice('260330-7', bytesOf(MAGIC.png), { filename: 'INV-2026-002.pdf' });
    expect(received.map((r) => [r.filename, r.type])).toEqual([
      ['scan.pdf', 'application/pdf'],
      ['INV-2026-001.pdf', 'application/pdf'],
      ['INV-2026-002.png', 'image/png'], // the given name's extension follows the bytes too
    ]);
  });

  it('sends a Uint8Array view with an offset as exactly its own bytes', async () => {
    const received = invoiceEndpoint();
    const whole = new Uint8Array(200);
    whole.set(bytesOf(MAGIC.png, 100), 50);
    await client.orders.uploadInvoice('260330-7', whole.subarray(50, 150));
    expect(received[0]?.bytes).toEqual(bytesOf(MAGIC.png, 100));
  });

  it('takes a file of exactly 7 MiB', async () => {
    const received = invoiceEndpoint();
    await client.orders.uploadInvoice('260330-7', new Blob([bytesOf(MAGIC.pdf, 7 * MiB)]));
    expect(received[0]?.bytes.byteLength).toBe(7 * MiB);
  });

  it.each([
    ['a GIF', () => new Blob([bytesOf([...'GIF89a'].map((c) => c.charCodeAt(0)))]), ['file'], /PDF, PNG or JPEG/],
    ['a file of 7 MiB + 1 byte', () => new Blob([bytesOf(MAGIC.pdf, 7 * MiB + 1)]), ['file'], /at most 7340032/],
    ['an empty file', () => new Uint8Array(0), ['file'], /empty/],
    ['a string', () => '%PDF-1.7' as never, ['file'], /Blob, Uint8Array/],
    ['a PDF with only 3 bytes', () => new Uint8Array([0x25, 0x50, 0x44]), ['file'], /PDF, PNG or JPEG/],
  ])('refuses %s before sending', async (_name, make, path, message) => {
    const received = invoiceEndpoint();
    const error = await client.orders.uploadInvoice('260330-7', make()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(path);
    expect((error as RequestValidationError).message).toMatch(message);
    expect(received).toHaveLength(0);
  });

  it.each(['../x.pdf', 'a\u0000b.pdf', 'a\tb.pdf', 'say "hi".pdf'])('refuses the file name %j before sending', async (filename) => {
    const received = invoiceEndpoint();
    const error = await client.orders.uploadInvoice('260330-7', bytesOf(MAGIC.pdf), { filename }).catch((e: unknown) => e);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['filename']);
    expect(received).toHaveLength(0);
  });

  it('a file-backed Blob that can no longer be read is a RequestValidationError, nothing sent', async () => {
    const received = invoiceEndpoint();
    const dir = mkdtempSync(join(tmpdir(), 'emporio-'));
    const path = join(dir, 'invoice.pdf');
    writeFileSync(path, bytesOf(MAGIC.pdf));
    const blob = await openAsBlob(path);
    rmSync(dir, { recursive: true });
    const error = await client.orders.uploadInvoice('260330-7', blob).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/could not be read/);
    expect(received).toHaveLength(0);
  });

  it('is not repeated after a transient failure', async () => {
    let calls = 0;
    server.use(
      http.post(URL_, () => {
        calls++;
        return HttpResponse.json({ errors: [] }, { status: 503, headers: { 'retry-after': '0' } });
      }),
    );
    await expect(makeClient({ maxRetries: 3 }).orders.uploadInvoice('260330-7', bytesOf(MAGIC.jpg))).rejects.toMatchObject({ status: 503 });
    expect(calls).toBe(1);
  });
});
