/**
 * The XML writer's deferred value check. The five texts that change with every product (id, name,
 * mpn, link, image) cost the writer most of its checking time when read one by one: a regular
 * expression each, and each value flattened apart from the chunk it goes into. The writer writes
 * them unread instead, notes where they are, and checks them all once the chunk is encoded, sixteen
 * bytes at a time (value-scan.wat). The check says only "plain" (what the quick path would take
 * unchanged) or "doubt": the writer has the full checker check a product in doubt, and writes the
 * chunk again from it.
 *
 * Where WebAssembly cannot be compiled from bytes (Cloudflare Workers refuse to) there is no
 * scan: the writer checks each value as it writes it, with the same result.
 */
import { VALUE_SCAN_WASM } from './value-scan-wasm.js';

export const TEXT = 0;
export const LINK = 1;
export const IMAGE = 2;

/** The regions of the values noted: three i32 each (first character, length, kind and product). */
const MAX_REGIONS = 4096;
/** Where the check writes the numbers of the products in doubt (fewer than the regions). */
const DOUBTS = MAX_REGIONS * 12;
/** Where the chunk's bytes start. */
const CHUNK_AT = DOUBTS + MAX_REGIONS * 4;
/** The check reads up to 15 bytes past a value's last byte: room for that past the chunk. */
const SLACK = 16;
const PAGE = 64 * 1024;

interface Exports {
  memory: WebAssembly.Memory;
  check(regions: number, count: number, base: number, end: number, ascii: number, doubts: number): number;
}

/** The compiled module; null where compiling is refused. */
let compiled: WebAssembly.Module | null | undefined;

const encoder = new TextEncoder();

export class ValueScan {
  /** A scan of its own (writers may run side by side), or undefined where WebAssembly cannot run. */
  static create(): ValueScan | undefined {
    if (compiled === undefined) {
      try {
        compiled = new WebAssembly.Module(Buffer.from(VALUE_SCAN_WASM, 'base64'));
      } catch {
        compiled = null;
      }
    }
    if (compiled === null) return undefined;
    try {
      return new ValueScan(new WebAssembly.Instance(compiled).exports as unknown as Exports);
    } catch {
      // No memory for an instance: this writer checks as it writes.
      return undefined;
    }
  }

  readonly #exports: Exports;
  #regions: Int32Array;
  #doubts: Int32Array;
  #bytes: Uint8Array;
  /** Regions noted since the last check. */
  #count = 0;
  /** Where the product being written starts in the text to check, and its number there. */
  #start = 0;
  #tag = 0;
  /** Bytes of the chunk encoded and checked so far (they follow the regions). */
  #held = 0;

  private constructor(exports: Exports) {
    this.#exports = exports;
    this.#regions = new Int32Array(exports.memory.buffer, 0, MAX_REGIONS * 3);
    this.#doubts = new Int32Array(exports.memory.buffer, DOUBTS, MAX_REGIONS);
    this.#bytes = new Uint8Array(exports.memory.buffer);
  }

  /** The chunk's bytes encoded so far. */
  get heldBytes(): number {
    return this.#held;
  }

  /** Whether the regions of another product might not fit: the writer checks the text first. */
  get full(): boolean {
    return this.#count + 8 > MAX_REGIONS;
  }

  /** The product numbered `product` starts at `start` in the text `check` is given next. */
  product(start: number, product: number): void {
    this.#start = start;
    this.#tag = product * 4;
  }

  /** A value of the current product, `offset` characters into it, of `kind`. */
  value(offset: number, length: number, kind: number): void {
    const at = this.#count * 3;
    this.#regions[at] = this.#start + offset;
    this.#regions[at + 1] = length;
    this.#regions[at + 2] = this.#tag + kind;
    this.#count++;
  }

  /**
   * Encodes `text` after the chunk's bytes and checks the values noted in it: how many products
   * have a value in doubt (`doubtful` names them). With none, the bytes are the chunk's.
   */
  check(text: string): number {
    const base = this.#reserve(text.length);
    const { written } = encoder.encodeInto(text, this.#bytes.subarray(base));
    const count = this.#count;
    this.#count = 0;
    const doubts = count === 0 ? 0 : this.#exports.check(0, count, base, base + written, written === text.length ? 1 : 0, DOUBTS);
    if (doubts === 0) this.#held += written;
    return doubts;
  }

  /** The number of the `k`th product in doubt of the last check (in the order they were noted). */
  doubtful(k: number): number {
    return this.#doubts[k]!;
  }

  /** Encodes `text`, checked as it was written, after the chunk's bytes. */
  append(text: string): void {
    this.#count = 0;
    const base = this.#reserve(text.length);
    this.#held += encoder.encodeInto(text, this.#bytes.subarray(base)).written;
  }

  /** The chunk's bytes, valid until the scan is given more text; the scan starts a new chunk. */
  take(): Uint8Array {
    const length = this.#held;
    this.#held = 0;
    return this.#bytes.subarray(CHUNK_AT, CHUNK_AT + length);
  }

  /** Room for `characters` more (3 bytes each at most), growing the memory when needed; where they go. */
  #reserve(characters: number): number {
    const base = CHUNK_AT + this.#held;
    const needed = base + characters * 3 + SLACK;
    const { memory } = this.#exports;
    if (memory.buffer.byteLength < needed) {
      memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
      // Growing detaches the old views.
      this.#regions = new Int32Array(memory.buffer, 0, MAX_REGIONS * 3);
      this.#doubts = new Int32Array(memory.buffer, DOUBTS, MAX_REGIONS);
      this.#bytes = new Uint8Array(memory.buffer);
    }
    return base;
  }
}
