// Every ```ts block of the README and of the guides under docs/, as a new user pastes it: its own
// imports, compiled against the installed package (not src) with strict, exactOptionalPropertyTypes and
// verbatimModuleSyntax. The few names a block uses without defining (your PDF, your feed, a configured
// client) are declared once, globally. Blocks that need none of them, no environment and no fixed port
// also run, each bounded in time, and the README's first block (the hello world, which runs as pasted)
// must be one of them. The README stays a front page: at most README_MAX_LINES lines.
// Run by scripts/smoke-packed.mjs in its scratch project; alone, it packs and installs itself
// (`--length`: only the README's length, which CI checks before anything is built).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installPacked, installPeers, root, strictCompilerOptions, tsc } from './lib/packed.mjs';

const placeholders = {
  pdfBytes: 'Uint8Array',
  readFeed: "() => AsyncIterable<import('emporio').ProductUpdate>",
  queue: '{ push(code: string): Promise<void> }',
  client: "import('emporio').MarketplaceClient",
};

/** The README is the front page: what it is, install, hello world, the client, errors, links. The rest is in docs/. */
export const README_MAX_LINES = 300;

/** The pages whose code blocks are checked: the README, then every guide under docs/. */
export function documentedPages() {
  const guides = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

/** The ```ts blocks of one page. */
export function codeBlocks(page) {
  return [...readFileSync(join(root, page), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** What keeps a block from running here: placeholders it uses, the environment, a fixed port it would hold. */
function whyNotRun(block) {
  const uses = Object.keys(placeholders).filter((name) => new RegExp(`\\b${name}\\b`).test(block) && !new RegExp(`(const|let|function) ${name}\\b`).test(block));
  if (uses.length > 0) return `uses ${uses.join(', ')}`;
  if (/process\.env|fromEnv\(/.test(block)) return 'reads the environment';
  if (/\.listen\([1-9]/.test(block)) return 'listens on a fixed port';
  return undefined;
}

/** The README's length, before anything is installed. */
export function checkReadmeLength() {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
  if (lines > README_MAX_LINES) throw new Error(`README.md has ${lines} lines (at most ${README_MAX_LINES}): move the detail into a guide under docs/`);
  return lines;
}

/** Compiles (and where possible runs) the blocks of the README and the guides inside `project`, which has emporio installed. */
export function checkReadme(project, { typeRoots } = {}) {
  const lines = checkReadmeLength();
  const dir = join(project, 'readme');
  mkdirSync(dir, { recursive: true });
  const runnable = [];
  let total = 0;
  for (const page of documentedPages()) {
    const stem = page.replace(/^docs\//, '').replace(/\.md$/, '').replace(/[^\w-]/g, '_');
    codeBlocks(page).forEach((block, i) => {
      const file = `${stem}-block${i + 1}.ts`;
      writeFileSync(join(dir, file), `${block}\nexport {};\n`);
      total++;
      if (whyNotRun(block) === undefined) runnable.push({ page, js: file.replace(/\.ts$/, '.js') });
    });
  }
  writeFileSync(
    join(dir, 'placeholders.d.ts'),
    Object.entries(placeholders)
      .map(([name, type]) => `declare const ${name}: ${type};`)
      .join('\n'),
  );
  const compilerOptions = {
    ...strictCompilerOptions,
    // msw's own types need the DOM lib; the package's own are checked without it by smoke-packed.
    lib: ['es2022', 'dom', 'dom.iterable'],
    skipLibCheck: true,
    ...(typeRoots ? { typeRoots } : {}),
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
  if (runnable[0]?.js !== 'README-block1.js') throw new Error("README: the first TypeScript block (the hello world) must run as pasted: no placeholders, no process.env");
  tsc(dir);
  console.log(`README (${lines} lines) and ${documentedPages().length - 1} guides: ${total} TypeScript blocks typecheck against the packed package`);
  for (const { page, js } of runnable) {
    try {
      execFileSync(process.execPath, [join('out', js)], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 });
    } catch (error) {
      throw new Error(`${page}: ${js} (its block ${js.match(/block(\d+)/)[1]}) did not run to its end: ${error.message}`);
    }
  }
  // The hello world says what it promises.
  const hello = execFileSync(process.execPath, [join('out', 'README-block1.js')], { cwd: dir, timeout: 60_000 }).toString();
  if (!hello.startsWith('order DEMO-OPEN is open')) throw new Error(`README: the hello world printed ${JSON.stringify(hello.slice(0, 200))}`);
  console.log(`${runnable.length} self-contained blocks ran (${runnable.map(({ js }) => js).join(', ')})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--length')) {
    console.log(`README.md: ${checkReadmeLength()} lines (at most ${README_MAX_LINES})`);
  } else {
    const { project, cleanup } = installPacked();
    try {
      installPeers(project);
      checkReadme(project, { typeRoots: [join(root, 'node_modules/@types')] });
    } finally {
      cleanup();
    }
  }
}
