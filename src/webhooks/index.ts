/**
 * `emporio/webhooks`: the order webhook of the merchant API documentation and the returns webhook, parsed, verified and handled.
 * Runs on any runtime with WHATWG fetch, Request, Response and crypto.subtle; it
 * carries no HTTP client.
 */
// The receiver's names are the root entry's too; the inbox's worker side is this entry's only, so the root does not carry it.
export * from './receiver.js';
export {
  createMemoryInbox,
  type DeadLetter,
  type InboxClaim,
  type InboxDelivery,
  type InboxEntry,
  type InboxFailure,
  type WebhookInbox,
} from './inbox.js';
export { type ProcessInboxOptions, processInbox } from './process-inbox.js';
