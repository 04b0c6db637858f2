/** `emporio-mock` driving a running mock from a shell (its admin API), and `--help` on every command. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';
import { startReceiver } from './helpers.js';

const SECRET = 'f1e2d3c4-b5a6-4978-8a6b-5c4d3e2f1a0b';
const cli = fileURLToPath(new URL('../../src/testing/cli.ts', import.meta.url));
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** `emporio-mock` started as a shell starts it; resolves once it listens, with its URL and output so far. */
async function startCli(args: string[]): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  );
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const check = () => (output.includes('Ctrl-C') ? resolve() : undefined);
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
  });
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] as string;
  return { url, output: () => output, child };
}

describe('emporio-mock from a shell', () => {
  it('order create / accept drive a running mock; the mock logs each delivery without the URL secret', async () => {
    // The first order_updated delivery is refused once (500), so its retry is logged too.
    let refusals = 0;
    const receiver: Awaited<ReturnType<typeof startReceiver>> = await startReceiver((index) =>
      receiver.received[index]?.body.includes('order_updated') && refusals++ === 0 ? 500 : 200,
    );
    closers.push(receiver.close);
    const mock = await startCli(['--webhook', `${receiver.url}/${SECRET}`, '--webhook-interval-ms', '20']);

    const created = await runScript(cli, ['order', 'create', '--url', mock.url], { timeoutMs: 20_000 });
    expect(created.code).toBe(0);
    const code = /^(\d{6}-\d{7}) +open/.exec(created.stdout)?.[1] as string;
    expect(code).toBeDefined();
    const accepted = await runScript(cli, ['order', 'accept', code, '--url', mock.url, '--json'], { timeoutMs: 20_000 });
    expect(accepted.code).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ code, state: 'accepted' });

    // The four orders the mock places at start are delivered first (their lines come first too).
    const ours = () => mock.output().split('\n').filter((line) => line.includes(` webhook `) && line.includes(code));
    for (let i = 0; i < 150 && ours().length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = ours();
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z webhook new_order ${code} -> ${receiver.url}/\\[redacted\\]: 200 \\(attempt 1 of 4\\)$`)),
      expect.stringMatching(/webhook order_updated .*: 500 \(attempt 1 of 4\)$/),
      expect.stringMatching(/webhook order_updated .*: 200 \(attempt 2 of 4\)$/),
    ]);
    expect(mock.output()).not.toContain(SECRET);

    const refused = await runScript(cli, ['order', 'accept', code, '--url', mock.url], { timeoutMs: 20_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('409');
  });

  it('the delivery log shows no part of a short, percent-encoded or query secret', async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const origin = new URL(receiver.url).origin;
    const mock = await startCli(['--webhook', `${origin}/hooks/Sh0rtSecr3t9`, '--webhook', `${origin}/h/%53%68%30rtSecr3t8?key=Sh0rtSecr3t7`]);
    const lines = () => mock.output().split('\n').filter((line) => line.includes(' webhook new_order '));
    for (let i = 0; i < 150 && lines().length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines().length).toBeGreaterThanOrEqual(2);
    expect(lines().some((line) => line.includes(`-> ${origin}/hooks/[redacted]: 200`))).toBe(true);
    expect(lines().some((line) => line.includes(`-> ${origin}/h/[redacted]?[redacted]: 200`))).toBe(true);
    expect(mock.output()).not.toMatch(/Sh0rtSecr3t|%53%68/);
  });

  it('warns on a bind to a host that is not loopback', async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: the warning comes before the bind fails.
    const started = await runScript(cli, ['--port', '0', '--host', '192.0.2.1'], { timeoutMs: 20_000 });
    expect(started.stderr).toContain('warning: listening on 192.0.2.1, not loopback');
  });

  it("trigger finds the running mock's vendor and token itself: started with --vendor and --token, nothing is typed twice", async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const mock = await startCli(['--vendor', 'acme', '--token', 'manual-token-5e1', '--webhook', `${receiver.url}/${SECRET}`]);
    const triggered = await runScript(cli, ['trigger', 'cancellation', 'DEMO-ACCEPTED', '--url', mock.url], { timeoutMs: 20_000 });
    expect(triggered.stderr).toBe('');
    expect(triggered.code).toBe(0);
    expect(triggered.stdout).toContain('{"success":true}');
    for (let i = 0; i < 150 && !receiver.received.some((d) => d.body.includes('DEMO-ACCEPTED')); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const delivery = receiver.received.find((d) => d.body.includes('DEMO-ACCEPTED'));
    expect(delivery?.headers['user-agent']).toBe('Acme OrderNotifier v1');
    // What was given still wins: a wrong token is refused.
    const refused = await runScript(cli, ['trigger', 'cancellation', 'DEMO-ACCEPTED', '--url', mock.url, '--token', 'wrong'], { timeoutMs: 20_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('401');
  });

  it('--help on every command exits 0 with its usage; a bad option is a usage error (exit 2), not a stack trace', async () => {
    for (const command of [[], ['order'], ['webhook'], ['trigger']]) {
      const help = await runScript(cli, [...command, '--help'], { timeoutMs: 20_000 });
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: emporio-mock${command[0] ? ` ${command[0]}` : ''}`));
    }
    const bad = await runScript(cli, ['trigger', '--bogus'], { timeoutMs: 20_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown option '--bogus'");
    expect(bad.stderr).toContain("emporio-mock trigger --help");
    expect(bad.stderr).not.toContain('    at ');
  });
});
