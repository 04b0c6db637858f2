import type { Transport } from '../core/transport.js';

/** Base of every namespace: holds the shared transport, nothing else. */
export abstract class APIResource {
  /** @internal */
  protected readonly _transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this._transport = transport;
  }
}
