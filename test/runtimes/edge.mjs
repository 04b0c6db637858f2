// A Vercel edge function (bundled with esbuild, run in edge-runtime's EdgeRuntime): POST /run runs the
// client's checks; everything else is the webhook receiver. An edge function has no peer address: the
// platform's X-Forwarded-For tells the client, trusted with trustProxy: 1.
import * as emporio from 'emporio';
import * as webhooks from 'emporio/webhooks';
import { clientScenario } from './client-scenario.mjs';
import { webhookApp } from './webhook-app.mjs';

const app = webhookApp(webhooks, { secret: EMPORIO_WEBHOOK_SECRET, trustProxy: 1 });
addEventListener('fetch', (event) => {
  const { request } = event;
  if (new URL(request.url).pathname === '/run') event.respondWith(request.json().then((params) => clientScenario(emporio, params)).then((results) => Response.json(results)));
  else event.respondWith(app(request, undefined));
});
