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

/** The answer a call resolved from, and how to describe it to the caller (built only when asked). */
export interface Answered {
  response(): APIResponse;
}

/**
 * The promise every non-paginated method returns: it resolves to the data, and
 * `.withResponse()` resolves to `{ data, response }`. It settles once, from one answer:
 * awaiting it and calling `.withResponse()` share the same request.
 */
export class APIPromise<T> extends Promise<T> {
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #answer: Promise<Answered>;

  /** @internal `map` turns the answer into the data; it runs once, when the answer arrives. */
  constructor(answer: Promise<Answered>, map: (answer: Answered) => T) {
    super((resolve, reject) => {
      // A throwing map rejects the call instead of leaving it pending.
      answer.then(map).then(resolve, reject);
    });
    this.#answer = answer;
  }

  /** The data and the HTTP answer it came from: `const { data, response } = await call.withResponse()`. */
  withResponse(): Promise<WithResponse<T>> {
    return Promise.all([this, this.#answer]).then(([data, answer]) => ({ data, response: answer.response() }));
  }
}
