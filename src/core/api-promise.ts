/** What answered a call: the HTTP details a caller may need beside the data. */
export interface APIResponse {
  status: number;
  /** The answer's headers, with credentials (and any echo of the token) replaced by `[redacted]`. */
  headers: Headers;
  /** The URL that answered, after redirects, without credentials. */
  url: string;
  /** The service's `X-Request-Id`, when it sent one: quote it when reporting a problem. */
  requestId: string | undefined;
}

/** What `.withResponse()` resolves to. */
export interface WithResponse<T> {
  data: T;
  response: APIResponse;
}

/**
 * The answer a call resolved from, and how to describe it to the caller (built only when asked).
 * @internal
 */
export interface Answered {
  response(): APIResponse;
}

/**
 * The promise every non-paginated method returns: it resolves to the data, and
 * `.withResponse()` resolves to `{ data, response }`. It settles once, from one answer:
 * awaiting it and calling `.withResponse()` share the same request.
 */
export interface APIPromise<T> extends Promise<T> {
  /** The data and the HTTP answer it came from: `const { data, response } = await call.withResponse()`. */
  withResponse(): Promise<WithResponse<T>>;
}

/**
 * @internal A native promise of `map(answer)` with `withResponse` on it. Not a subclass:
 * awaiting a subclass of Promise costs an extra promise and two turns of the microtask
 * queue on every call. A throwing map rejects the call.
 */
export function apiPromise<T>(answer: Promise<Answered>, map: (answer: Answered) => T): APIPromise<T> {
  const data = answer.then(map) as APIPromise<T>;
  data.withResponse = () => Promise.all([data, answer]).then(([value, answered]) => ({ data: value, response: answered.response() }));
  return data;
}
