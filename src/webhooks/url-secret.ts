/**
 * The secret in a registered webhook URL (the service's documentation today): deliveries carry no signature,
 * so a merchant registers `https://shop.example/webhooks/<secret>` (or `...?secret=<secret>`)
 * and the receiver accepts only requests to that URL.
 */

export type UrlSecretOption = string | readonly string[];

/** URL-safe as is, in a path segment and in a query parameter; long enough not to be guessed. */
const SECRET_PATTERN = /^[\w.~-]{16,256}$/;

/**
 * A check for `urlSecret`: `admit(request)` resolves to the request as `onEvent` sees it
 * (its URL without the secret) when the URL's last path segment or a `secret` parameter
 * is one of the secrets, or to undefined. Every comparison takes the same time: SHA-256
 * digests of fixed length, every byte of every secret compared, no early exit.
 */
export function createUrlSecretCheck(option: UrlSecretOption): { admit(request: Request): Promise<Request | undefined> } {
  const secrets = typeof option === 'string' ? [option] : option;
  // The message never quotes the value: it is a secret even when it is a poor one.
  if (!Array.isArray(secrets) || secrets.length === 0 || !secrets.every((s) => typeof s === 'string' && SECRET_PATTERN.test(s))) {
    throw new TypeError('createWebhookHandler: urlSecret: 16 to 256 of A-Z a-z 0-9 _ - . ~ each (e.g. crypto.randomUUID())');
  }
  let digests: Promise<Uint8Array[]> | undefined;
  const matches = async (candidate: string) => {
    const digest = await sha256(candidate);
    digests ??= Promise.all(secrets.map(sha256));
    let matched = 0;
    for (const secret of await digests) {
      let difference = 0;
      for (let i = 0; i < digest.length; i++) difference |= (digest[i] as number) ^ (secret[i] as number);
      matched |= difference === 0 ? 1 : 0;
    }
    return matched === 1;
  };

  return {
    async admit(request) {
      const url = new URL(request.url);
      const segments = url.pathname.split('/');
      // A trailing slash is no segment of its own: `/webhooks/<secret>/` is the same URL.
      const last = segments.length - (segments.length > 2 && segments.at(-1) === '' ? 2 : 1);
      const inPath = await matches(segments[last] as string);
      let inQuery = false;
      // A bounded number of `secret` parameters: a request may carry any number.
      for (const value of url.searchParams.getAll('secret').slice(0, 4)) inQuery = (await matches(value)) || inQuery;
      if (!inPath && !inQuery) return undefined;

      if (inPath) {
        segments[last] = '[redacted]';
        url.pathname = segments.join('/');
      }
      url.searchParams.delete('secret');
      // onEvent's request carries the URL without the secret; the body is read from the original.
      return new Request(url, { method: request.method, headers: request.headers });
    },
  };
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}
