// Bun: the receiver as Bun.serve's fetch; the peer address from server.requestIP. Prints its URL.
import * as webhooks from 'emporio/webhooks';
import { webhookApp } from './webhook-app.mjs';

const app = webhookApp(webhooks, { secret: process.argv[2] });
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request, server) => app(request, server.requestIP(request)?.address) });
console.log(server.url.href.replace(/\/$/, ''));
