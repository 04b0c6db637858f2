/**
 * The webhook receiver each runtime serves as its own fetch handler: `/webhooks/<secret>` accepts
 * loopback senders, `/service-only/<secret>` only the service's ranges (so a loopback delivery is
 * refused: the address the platform told was checked), `GET /events` lists what `onEvent` saw.
 * `remoteAddress` is the client address as the platform tells it.
 */
export function webhookApp(webhooks, { secret, trustProxy }) {
  const events = [];
  const refusals = [];
  const options = {
    urlSecret: secret,
    trustProxy,
    onEvent: (event) => void events.push(`${event.event_type} ${event.order?.code}`),
    onError: (_error, info) => void refusals.push(`${info.status} ${info.reason} ${info.sourceAddress}`),
  };
  const loopback = webhooks.createWebhookHandler({ ...options, allowedRanges: ['127.0.0.0/8', '::1/128'] });
  const serviceOnly = webhooks.createWebhookHandler(options);
  return (request, remoteAddress) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/events') return Response.json({ events, refusals });
    return (pathname.startsWith('/service-only/') ? serviceOnly : loopback)(request, { remoteAddress });
  };
}
