/** `emporio feed check` and `emporio feed convert` as a merchant runs them: a child process. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';

const cli = fileURLToPath(new URL('../../src/cli/emporio.ts', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/feed/simple.xml', import.meta.url));
const run = async (args: string[]) => {
  const { code, stdout, stderr } = await runScript(cli, args, { env: { PATH: process.env.PATH ?? '' } });
  return { code, out: stdout, err: stderr };
};

describe('emporio feed', () => {
  it('--help shows the feed commands, from emporio --help and emporio feed --help', async () => {
    expect((await run(['--help'])).out).toContain('emporio feed check <file|url> [--json]');
    const feedHelp = await run(['feed', '--help']);
    expect(feedHelp.code).toBe(0);
    expect(feedHelp.out).toMatch(/^Usage: emporio feed check/);
  });

  it('check: a clean feed exits 0 listing its warnings; --json prints the report', async () => {
    const human = await run(['feed', 'check', fixture]);
    expect(human.code).toBe(0);
    expect(human.out).toContain('3 products, 0 errors, 5 warnings');
    expect(human.out).toContain('warning line 12 [id] spelling: <uid>');
    const json = await run(['feed', 'check', fixture, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ products: 3, errors: [], warningCount: 5 });
  });

  it('check: errors exit 1 with line, product and attribute; control characters in a feed are shown escaped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-cli-'));
    const file = join(dir, 'bad.xml');
    writeFileSync(file, readFileSync(fixture, 'utf8').replace('<price>49.90</price>', '<price>1,234.50</price>').replace('<uid>EX-2001</uid>', '<uid>EX-\u001b[31m2001</uid>'));
    const { code, out } = await run(['feed', 'check', file]);
    expect(code).toBe(1);
    expect(out).toMatch(/error {3}line 18 \[EX-1001 price\] decimal: price "1,234\.50"/);
    expect(out).not.toContain('\u001b');
  });

  it('check: a path argument is a path, even when the file name contains a newline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-cli-'));
    const file = join(dir, 'shop\nfeed.xml');
    writeFileSync(file, readFileSync(fixture));
    const { code, out } = await run(['feed', 'check', file]);
    expect(code).toBe(0);
    expect(out).toContain('3 products, 0 errors, 5 warnings');
  });

  it('convert: a CSV feed becomes an XML feed that checks clean; a usage error exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-cli-'));
    const csv = join(dir, 'feed.csv');
    writeFileSync(
      csv,
      'id,name,link,image,category,price_with_vat,vat,manufacturer,mpn,ean,availability,description,quantity\n' +
        'P-1,"Bike 600 ""Extreme""",https://shop.example.com/p/1,,Bikes > Mountain,322.3,24,Examplebikes,B600,2001001001018,In Stock,A bike,3\n' +
        'P-2,No VAT,https://shop.example.com/p/2,,Bikes > Mountain,10,,Examplebikes,B601,2001001001025,In Stock,A bike,3\n',
    );
    const xml = join(dir, 'feed.xml');
    const converted = await run(['feed', 'convert', csv, xml]);
    expect(converted.code).toBe(1);
    expect(converted.out).toContain('1 products written, 1 left out');
    expect(converted.out).toContain('[P-2 vat] required');
    const text = readFileSync(xml, 'utf8');
    expect(text).toContain('<name>Bike 600 "Extreme"</name>');
    expect(text).toContain('<price_with_vat>322.30</price_with_vat>');
    expect((await run(['feed', 'check', xml])).code).toBe(0);
    expect((await run(['feed', 'convert', csv])).code).toBe(2);
  });

  it('convert: an output directory that does not exist exits 1 with one line, no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-cli-'));
    const csv = join(dir, 'feed.csv');
    writeFileSync(
      csv,
      'id,name,link,image,category,price_with_vat,vat,manufacturer,mpn,ean,availability,description,quantity\n' +
        'P-1,Bike,https://shop.example.com/p/1,,Bikes > Mountain,322.3,24,Examplebikes,B600,2001001001018,In Stock,A bike,3\n',
    );
    const { code, out, err } = await run(['feed', 'convert', csv, join(dir, 'no', 'such', 'dir', 'out.xml')]);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^emporio: .*ENOENT/);
    expect(err).not.toMatch(/\n\s+at /);
  });

  it('check: a URL with a password is shown without it; a loopback URL is refused by default', async () => {
    // A loopback port nothing listens on (fetch itself refuses some low ports, such as 9, as "bad port").
    const port = await closedPort();
    const { code, out } = await run(['feed', 'check', `http://merchant:s3cr3t@127.0.0.1:${port}/feed.xml?key=k3y`]);
    expect(code).toBe(1);
    expect(out).toContain(`http://127.0.0.1:${port}/feed.xml?…: 0 products, 1 errors`);
    expect(out).toContain('a loopback, private or link-local address: refused');
    expect(out).not.toMatch(/s3cr3t|k3y/);
    const allowed = await run(['feed', 'check', '--allow-private-network', `http://merchant:s3cr3t@127.0.0.1:${port}/feed.xml`]);
    expect(allowed.out).toContain(`http://127.0.0.1:${port}/feed.xml could not be reached (ECONNREFUSED)`);
    expect(allowed.out).not.toContain('s3cr3t');
  });
});

/** A loopback port that was free a moment ago: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
