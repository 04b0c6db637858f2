// A Cloudflare Worker (bundled with esbuild, run by workerd): POST /run runs the client's checks;
// everything else is the webhook receiver, the client address from CF-Connecting-IP.
import * as emporio from 'emporio';
import * as webhooks from 'emporio/webhooks';
import { clientScenario } from './client-scenario.mjs';
import { webhookApp } from './webhook-app.mjs';

let app;
export default {
  async fetch(request) {
    if (new URL(request.url).pathname === '/run') return Response.json(await clientScenario(emporio, await request.json()));
    app ??= webhookApp(webhooks, { secret: EMPORIO_WEBHOOK_SECRET });
    return app(request, request.headers.get('CF-Connecting-IP') ?? undefined);
  },
};
