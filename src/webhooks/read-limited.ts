/** A body read with a bound: webhook deliveries (and the kit’s token endpoint, JSON bodies and its receivers' answers). */
import { concatBytes } from '../core/bytes.js';

/** The body's bytes, or undefined as soon as it passes `limit` (the rest is never read). */
export async function readLimited(message: Request | Response, limit: number): Promise<Uint8Array | undefined> {
  if (message.body === null) return new Uint8Array(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return concatBytes(chunks, total);
}
