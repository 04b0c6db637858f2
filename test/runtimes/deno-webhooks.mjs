// Deno: the receiver as Deno.serve's handler; the peer address from info.remoteAddr. Prints its URL.
import * as webhooks from 'emporio/webhooks';
import { webhookApp } from './webhook-app.mjs';

const app = webhookApp(webhooks, { secret: Deno.args[0] });
Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ hostname, port }) => console.log(`http://${hostname}:${port}`) },
  (request, info) => app(request, info.remoteAddr.hostname),
);
