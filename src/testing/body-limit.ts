/** Request bodies read with a bound: a client that sends without end costs the mock a few KiB, not its memory. */

/**
 * The request's body as text, or undefined once it passes `limit` bytes (the rest is not read:
 * the stream is cancelled).
 */
export async function readTextWithin(request: Request, limit: number): Promise<string | undefined> {
  const stream = request.body;
  if (stream === null) return '';
  const reader = stream.getReader();
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
  return Buffer.concat(chunks, total).toString('utf8');
}
