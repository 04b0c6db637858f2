import { RequestValidationError } from '../../core/errors.js';

/** What `uploadInvoice` takes: the file's bytes, in any of the forms fetch runtimes use. */
export type InvoiceFile = Blob | Uint8Array | ArrayBuffer;

/** The merchant API documentation: at most 7 MB per invoice file; taken as 7 MiB, as the contract says. */
export const MAX_INVOICE_BYTES = 7 * 1024 * 1024;

interface InvoiceType {
  mime: string;
  extension: string;
  magic: readonly number[];
}

// The only types the service takes (pdf, png, jpg), recognised by their first bytes.
const INVOICE_TYPES: readonly InvoiceType[] = [
  { mime: 'application/pdf', extension: 'pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { mime: 'image/png', extension: 'png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: 'image/jpeg', extension: 'jpg', magic: [0xff, 0xd8, 0xff] },
];
const MAGIC_LENGTH = 8;

/** Which upload a form is for: its multipart field and its default file name. */
export interface InvoiceKind {
  field: 'invoice_file' | 'credit_invoice_file';
  /** The default file name without extension; also the error message's word. */
  name: 'invoice' | 'credit invoice';
}
const INVOICE: InvoiceKind = { field: 'invoice_file', name: 'invoice' };

function detect(head: Uint8Array): InvoiceType | undefined {
  return INVOICE_TYPES.find((type) => type.magic.every((byte, i) => head[i] === byte));
}

/**
 * The multipart body of POST invoices: field `invoice_file`, typed by the file's first
 * bytes (whatever the name says), at most 7 MiB. A Blob is not read here: only its
 * first bytes are sliced off to recognise it, and the body streams it once.
 */
export async function invoiceForm(file: InvoiceFile, filename: string | undefined, kind: InvoiceKind = INVOICE): Promise<FormData> {
  const invalid = (message: string, path: PropertyKey[] = ['file']) => new RequestValidationError(`Invalid ${kind.name} file`, [{ path, message }]);
  if (filename !== undefined && (typeof filename !== 'string' || filename.trim() === '' || UNSAFE_NAME.test(filename))) {
    throw invalid('expected a file name without path separators, quotes or control characters', ['filename']);
  }
  let blob: Blob;
  let head: Uint8Array;
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    blob = file;
    try {
      head = new Uint8Array(await file.slice(0, MAGIC_LENGTH).arrayBuffer());
    } catch (error) {
      // A file-backed Blob whose file changed or went away.
      throw invalid(`the file could not be read: ${(error as Error).message}`);
    }
  } else if (file instanceof ArrayBuffer || ArrayBuffer.isView(file)) {
    const bytes = file instanceof ArrayBuffer ? new Uint8Array(file) : new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    head = bytes.subarray(0, MAGIC_LENGTH);
    blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
  } else {
    throw invalid('expected a Blob, Uint8Array/Buffer or ArrayBuffer');
  }
  if (blob.size === 0) throw invalid('the file is empty');
  if (blob.size > MAX_INVOICE_BYTES) {
    throw invalid(`the file has ${blob.size} bytes; the service takes at most ${MAX_INVOICE_BYTES} (7 MiB)`);
  }
  const type = detect(head);
  if (!type) throw invalid('not a PDF, PNG or JPEG file (recognised by its first bytes, whatever its name)');

  // The name's extension follows the detected type too, so the two never disagree.
  const name = withExtension(filename ?? defaultName(file, kind.name.replace(' ', '_')), type.extension);
  const form = new FormData();
  // slice() re-labels the Blob with the detected type without copying its bytes.
  form.append(kind.field, blob.type === type.mime ? blob : blob.slice(0, blob.size, type.mime), name);
  return form;
}

function defaultName(file: InvoiceFile, fallback: string): string {
  const name = typeof File !== 'undefined' && file instanceof File ? file.name : '';
  return name && !UNSAFE_NAME.test(name) ? name : fallback;
}

/** Path separators, quotes and control characters: nothing that could bend the multipart header. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const UNSAFE_NAME = /[\\/"\u0000-\u001f\u007f]/;

function withExtension(name: string, extension: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}.${extension}`;
}
