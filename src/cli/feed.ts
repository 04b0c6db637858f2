/**
 * `emporio feed check <file|url> [--json]` and `emporio feed convert <csv> <xml>`.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { escapeControlCharacters } from '../core/text.js';
import { type CheckedProduct, checkFeed } from '../feed/check.js';
import type { FeedIssue, FeedProduct, FeedReport } from '../feed/types.js';
import { temporaryPath } from '../feed/file-target.js';
import { isUrl, shown } from '../feed/source.js';
import { createFeedWriter } from '../feed/xml-writer.js';

export const FEED_USAGE = `Usage: emporio feed check <file|url> [--json] [--allow-private-network]
       emporio feed convert <csv> <xml>

check    reads a product feed (XML or CSV; a file or an http(s) URL; gzip or zip) as the
         service would and lists what it would refuse (errors) or map on its own (warnings),
         each with its line, product and attribute. --json prints the report as JSON.
         A URL on loopback or a private network is refused unless --allow-private-network.
         A user and password in the URL are sent as basic auth (to that origin only).
convert  writes a CSV feed as an XML feed, checking every product; those that break a rule
         are left out and listed.

Exit status: 0 no errors; 1 errors found (or products left out); 2 a usage error.`;

/** Progress is shown on a terminal for feeds past this many bytes. */
const PROGRESS_FROM_BYTES = 5 * 1024 * 1024;

export async function runFeedCommand(argv: string[], usageError: (message: string) => Error): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, 'allow-private-network': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(FEED_USAGE);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (command === 'check' && rest.length === 1) return check(rest[0]!, values.json === true, values['allow-private-network'] === true);
  if (command === 'convert' && rest.length === 2) return convert(rest[0]!, rest[1]!);
  throw usageError(command === undefined ? 'feed: no command given (check or convert)' : `feed: wrong use of ${command}; see emporio feed --help`);
}

/**
 * A command-line argument as a feed source: an http(s) URL, or else a path, always. `checkFeed`
 * takes a string that spans lines or starts with `<` as the feed's text; a file may be named so.
 */
function fromArgument(argument: string): string | AsyncIterable<Uint8Array> {
  if (/^https?:\/\//i.test(argument)) return argument;
  return createReadStream(argument, { highWaterMark: 64 * 1024 }) as AsyncIterable<Uint8Array>;
}

async function check(source: string, json: boolean, allowPrivateNetwork: boolean): Promise<number> {
  const progress = progressLine();
  let report: FeedReport;
  try {
    report = await checkFeed(fromArgument(source), { onProgress: progress.update, allowPrivateNetwork });
  } finally {
    progress.clear();
  }
  if (json) console.log(JSON.stringify(report, null, 2));
  else printReport(source, report);
  return report.errorCount > 0 ? 1 : 0;
}

async function convert(csv: string, xml: string): Promise<number> {
  const writer = createFeedWriter();
  const temporary = temporaryPath(xml);
  const written = pipeline(writer.toNodeStream(), createWriteStream(temporary, { flags: 'wx' }));
  // Handled at once: the file may fail to open (a missing directory) before any product is read.
  let failure: unknown;
  written.catch((error: unknown) => {
    failure ??= error;
  });
  let report: FeedReport;
  try {
    report = await checkFeed(fromArgument(csv), {
      onProduct: (product) => {
        if (failure !== undefined) throw failure;
        return writer.write(asFeedProduct(product));
      },
    });
  } catch (error) {
    writer.end();
    await written.catch(() => {});
    await rm(temporary, { force: true });
    // The output's own failure, rather than the writer's report of it.
    throw failure ?? error;
  }
  const result = writer.end();
  await written;
  await rename(temporary, xml);
  printReport(csv, report);
  console.log(`${xml}: ${result.products} products written, ${result.errorCount} left out`);
  for (const issue of result.errors) console.log(`  left out ${describe(issue)}`);
  return report.errorCount > 0 || result.errorCount > 0 ? 1 : 0;
}

/** A product read from the CSV as the writer takes it (its numbers stay decimal strings). */
function asFeedProduct(product: CheckedProduct): FeedProduct {
  const { quantity, outlet, variations, ...rest } = product;
  return {
    ...rest,
    quantity: quantity === undefined ? (undefined as unknown as number) : Number(quantity),
    outlet: outlet === undefined ? undefined : outlet === 'Y',
    variations: variations.map((v) => ({ ...v, quantity: Number(v.quantity), outlet: v.outlet === undefined ? undefined : v.outlet === 'Y' })),
  } as FeedProduct;
}

function printReport(source: string, report: FeedReport): void {
  // A URL is shown without its user, password or query.
  const name = isUrl(source) && URL.canParse(source) ? shown(new URL(source)) : source;
  console.log(`${escapeControlCharacters(name)}: ${report.products} products, ${report.errorCount} errors, ${report.warningCount} warnings`);
  for (const issue of report.errors) console.log(`  error   ${describe(issue)}`);
  for (const issue of report.warnings) console.log(`  warning ${describe(issue)}`);
  const hidden = report.errorCount - report.errors.length + report.warningCount - report.warnings.length;
  if (hidden > 0) console.log(`  (${hidden} more not listed)`);
}

function describe(issue: FeedIssue): string {
  const where = [issue.productId, issue.attribute].filter((part) => part !== undefined).join(' ');
  return escapeControlCharacters(`line ${issue.line}${where ? ` [${where}]` : ''} ${issue.rule}: ${issue.message}`);
}

/** One line on stderr, rewritten as bytes are read, when stderr is a terminal and the feed is large. */
function progressLine() {
  const tty = process.stderr.isTTY === true;
  let shown = false;
  let last = 0;
  return {
    update(bytes: number) {
      const now = Date.now();
      if (!tty || bytes < PROGRESS_FROM_BYTES || now - last < 250) return;
      last = now;
      shown = true;
      process.stderr.write(`\rchecked ${(bytes / 1024 / 1024).toFixed(1)} MB`);
    },
    clear() {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}
