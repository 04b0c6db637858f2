/**
 * The ids seen so far in one feed, for catching a repeated Unique ID without keeping every
 * product (or even every id string) in memory.
 *
 * Most shops number their products (`12345`, `SKU-12345`): a product id of one prefix and a
 * number below 2^24 is kept as one bit of a bitmap, exactly, and a million of them take 125 KB
 * that stay in the processor's cache. The prefix is the first such id's; an id of another
 * prefix, a number with leading zeros (`SKU-007` is not `SKU-7`) or a larger one is hashed. An id
 * is either always a bit or always hashed, so the two never hold the same id.
 *
 * Any other id is kept as two independent 32-bit hashes, 8 bytes, in an open-addressing table.
 * Two different ids are taken for one only when both hashes collide (about 1 in 10^7 for a feed
 * of a million hashed ids; such a product is reported, never silently lost).
 *
 * The first hash, which picks the slot, is one of the id without its last character (and that
 * character's high bits) plus the last character's low 3 bits: ids that differ only in their
 * last digit (`EXT-120` … `EXT-127`, numbered ids of a second prefix) land in neighbouring
 * slots, one cache line instead of eight misses in a table of many megabytes. No more than
 * eight ids share a neighbourhood that way, so no id pattern piles them up.
 */

/** Numbers from here on are hashed: the bitmap never exceeds 2 MiB. */
const MAX_NUMBERED = 1 << 24;

export class IdSet {
  private table = new Uint32Array(1 << 12);
  private count = 0;
  /** The prefix of the numbered product ids (fixed by the first one), and their bits. */
  private prefix: string | undefined;
  private bits = new Uint32Array(1 << 10);
  /** The two hashes of the last id hashed (two fields rather than an object per id). */
  private h1 = 0;
  private h2 = 0;

  /**
   * Adds `id` of `kind` (products and variations are kept apart); false when it was already there.
   * With `keep` false it only looks (a product refused for other reasons holds no id).
   */
  add(id: string, kind: 0 | 1 = 0, keep = true): boolean {
    if (kind === 0) {
      const n = this.numbered(id);
      if (n !== -1) return this.addNumber(n, keep);
    }
    this.hash(id, kind);
    if ((this.count + 1) * 2 > this.table.length / 2) this.grow();
    return this.insert(this.h1, this.h2, keep);
  }

  /**
   * Takes `id` of `kind` out again (a product the writer took before its values were checked, then
   * refused). Only an id `add` kept may be removed.
   */
  remove(id: string, kind: 0 | 1 = 0): void {
    if (kind === 0) {
      const n = this.numbered(id);
      if (n !== -1) {
        const word = n >>> 5;
        if (word < this.bits.length) this.bits[word]! &= ~(1 << (n & 31));
        return;
      }
    }
    this.hash(id, kind);
    this.delete(this.h1, this.h2);
  }

  private hash(id: string, kind: 0 | 1): void {
    const end = id.length - 1;
    // The kind goes in as a character of its own, one no string holds: mixed into the first
    // character's bits, a product's `If` and a variation's `Hf` had the same two hashes.
    let h1 = Math.imul(0x811c9dc5 ^ (0x10000 + kind), 0x01000193);
    let h2 = Math.imul(0x9747b28c ^ (0x10000 + kind), 0x5bd1e995);
    h2 ^= h2 >>> 15;
    for (let i = 0; i < end; i++) {
      const c = id.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    const last = end >= 0 ? id.charCodeAt(end) : 0;
    h1 = Math.imul(h1 ^ (last >>> 3), 0x01000193);
    h1 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d);
    h1 ^= h1 >>> 12;
    this.h1 = ((h1 & ~7) | (last & 7)) >>> 0 || 1; // 0 marks an empty slot
    h2 = Math.imul(h2 ^ last, 0x5bd1e995);
    h2 ^= h2 >>> 15;
    this.h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35) >>> 0;
  }

  /** The number `id` ends in, when it is `prefix` and that number in plain decimal (below MAX_NUMBERED); else -1. */
  private numbered(id: string): number {
    let at = id.length;
    let n = 0;
    for (let scale = 1; at > 0 && scale < MAX_NUMBERED && isDigit(id.charCodeAt(at - 1)); scale *= 10) {
      at--;
      n += (id.charCodeAt(at) - 48) * scale;
    }
    // No digits, a leading zero (but `0` itself: so one id has one number), or a number past the limit.
    if (at === id.length || (id.charCodeAt(at) === 48 && at < id.length - 1) || n >= MAX_NUMBERED) return -1;
    if (this.prefix === undefined) this.prefix = id.slice(0, at);
    else if (at !== this.prefix.length || !id.startsWith(this.prefix)) return -1;
    return n;
  }

  private addNumber(n: number, keep: boolean): boolean {
    const word = n >>> 5;
    const bit = 1 << (n & 31);
    if (word >= this.bits.length) {
      if (!keep) return true;
      const bits = new Uint32Array(Math.min(MAX_NUMBERED >>> 5, Math.max(word + 1, this.bits.length * 2)));
      bits.set(this.bits);
      this.bits = bits;
    }
    const held = this.bits[word]!;
    if ((held & bit) !== 0) return false;
    if (keep) this.bits[word] = held | bit;
    return true;
  }

  private insert(h1: number, h2: number, keep = true): boolean {
    const table = this.table;
    const mask = table.length / 2 - 1;
    for (let slot = h1 & mask; ; slot = (slot + 1) & mask) {
      const at = slot * 2;
      const stored = table[at]!;
      if (stored === 0) {
        if (!keep) return true;
        table[at] = h1;
        table[at + 1] = h2;
        this.count++;
        return true;
      }
      if (stored === h1 && table[at + 1] === h2) return false;
    }
  }

  /**
   * Empties the slot of (h1, h2) and moves back the later ids of its run that the gap would cut
   * off from their first slot (linear probing's deletion: no marker left behind).
   */
  private delete(h1: number, h2: number): void {
    const table = this.table;
    const mask = table.length / 2 - 1;
    let hole = h1 & mask;
    for (; ; hole = (hole + 1) & mask) {
      const stored = table[hole * 2]!;
      if (stored === 0) return;
      if (stored === h1 && table[hole * 2 + 1] === h2) break;
    }
    for (let next = (hole + 1) & mask; table[next * 2] !== 0; next = (next + 1) & mask) {
      const home = table[next * 2]! & mask;
      // An id may fill the hole when the hole lies between its first slot and where it sits.
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        table[hole * 2] = table[next * 2]!;
        table[hole * 2 + 1] = table[next * 2 + 1]!;
        hole = next;
      }
    }
    table[hole * 2] = 0;
    table[hole * 2 + 1] = 0;
    this.count--;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.count = 0;
    for (let at = 0; at < old.length; at += 2) if (old[at] !== 0) this.insert(old[at]!, old[at + 1]!);
  }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
