/** `emporio-mock --returns-webhook URL`: a return awaiting review is made at start, its created event posted to that URL, and the review works over HTTP. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MarketplaceClient } from 'emporio';
import { parseWebhook, type ReturnEvent } from 'emporio/webhooks';
import { expect, it } from 'vitest';
import { startReceiver } from './helpers.js';

const cli = fileURLToPath(new URL('../../src/testing/cli.ts', import.meta.url));

it('posts the start-up return’s created event to the returns webhook URL, apart from order events', async () => {
  const orders = await startReceiver();
  const returns = await startReceiver();
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--webhook', orders.url, '--returns-webhook', returns.url], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    child.stdout.setEncoding('utf8');
    const printed = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Ctrl-C')) resolve(output);
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
    });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1] as string;
    const code = /^ {2}(R-\d{6}-\d{7}) +pending_merchant_review +order \S+/m.exec(printed)?.[1] as string;
    expect(printed).toMatch(/^ {2}DEMO-RETURN +returning +order DEMO-OPEN/m);

    for (let i = 0; i < 100 && returns.received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const created = parseWebhook(returns.received[0]?.body ?? '') as ReturnEvent;
    expect(created.event_type).toBe('merchant_return_created');
    expect(created.return.return_code).toBe(code);
    expect(orders.received.every((r) => !r.body.includes('merchant_return'))).toBe(true);

    const client = new MarketplaceClient({ baseUrl: url, vendor: 'marketplace', token: 'test-orders-token' });
    await client.returns.review(created.return, { option: 'not_faulty', comment: 'Works as specified.' });
    expect((await client.returns.get(code)).state).toBe('rejected');
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    await Promise.all([orders.close(), returns.close()]);
  }
}, 30_000);
