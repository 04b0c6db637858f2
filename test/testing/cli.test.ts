/** `emporio-mock`: starts on a loopback port, prints the URL and tokens, serves seeded orders, stops on SIGINT. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../src/testing/cli.ts', import.meta.url));

it('prints the URL and tokens, serves seeded orders with --token, and exits 0 on SIGINT', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--token', 'manual-token', '--vendor', 'acme'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ctrl-C')) resolve(output);
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
  });
  const printed = await ready;
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1] as string;
  const code = /^ {2}(\d{6}-\d{7}) +open/m.exec(printed)?.[1] as string;
  expect(printed).toContain('orders   manual-token');
  const answer = await fetch(`${url}/merchants/ecommerce/orders/${code}`, {
    headers: { Accept: 'application/vnd.acme+json; version=3.0', Authorization: 'Bearer manual-token' },
  });
  expect(answer.status).toBe(200);
  const { order } = await answer.json();
  expect(order.code).toBe(code);
  // --vendor acme: the orders carry the vendor's spelling, as the real service's do (spec/4 section 1).
  expect(order.courier).toBe('Acme Last Mile');
  expect(order.fulfilled_by_acme).toBe(false);
  expect(order).not.toHaveProperty('fulfilled_by_marketplace');
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  expect(await exited).toBe(0);
});
