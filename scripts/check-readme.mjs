// Every ```ts block of the README, as a new user pastes it: its own imports, compiled against the
// installed package (not src) with strict, exactOptionalPropertyTypes and verbatimModuleSyntax.
// The few names a block uses without defining (your PDF, your feed, a configured client) are
// declared once, globally. Blocks that need none of them and no environment also run, and the
// first block (the hello world, which runs as pasted) must be one of them.
// Run by scripts/smoke-packed.mjs in its scratch project; alone, it packs and installs itself.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installPacked, installPeers, root, run, strictCompilerOptions, tsc } from './lib/packed.mjs';

const placeholders = {
  pdfBytes: 'Uint8Array',
  readFeed: "() => AsyncIterable<import('emporio').ProductUpdate>",
  queue: '{ push(code: string): Promise<void> }',
  client: "import('emporio').MarketplaceClient",
};

export function readmeBlocks() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Compiles (and where possible runs) the README's blocks inside `project`, which has emporio installed. */
export function checkReadme(project, { typeRoots } = {}) {
  const dir = join(project, 'readme');
  mkdirSync(dir, { recursive: true });
  const blocks = readmeBlocks();
  const runnable = [];
  blocks.forEach((block, i) => {
    const file = `block${i + 1}.ts`;
    writeFileSync(join(dir, file), `${block}\nexport {};\n`);
    const uses = Object.keys(placeholders).filter((name) => new RegExp(`\\b${name}\\b`).test(block) && !new RegExp(`(const|let|function) ${name}\\b`).test(block));
    // Blocks that read your environment (keys, OAuth clients) only compile here.
    if (uses.length === 0 && !block.includes('process.env')) runnable.push(file.replace(/\.ts$/, '.js'));
  });
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
  if (runnable[0] !== 'block1.js') throw new Error("README: the first TypeScript block (the hello world) must run as pasted: no placeholders, no process.env");
  tsc(dir);
  console.log(`README: ${blocks.length} TypeScript blocks typecheck against the packed package`);
  for (const file of runnable) run(process.execPath, [join('out', file)], dir);
  // The hello world says what it promises.
  const hello = execFileSync(process.execPath, [join('out', 'block1.js')], { cwd: dir, timeout: 60_000 }).toString();
  if (!hello.startsWith('order DEMO-OPEN is open')) throw new Error(`README: the hello world printed ${JSON.stringify(hello.slice(0, 200))}`);
  console.log(`README: ${runnable.length} self-contained blocks ran (${runnable.join(', ')})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { project, cleanup } = installPacked();
  try {
    installPeers(project);
    checkReadme(project, { typeRoots: [join(root, 'node_modules/@types')] });
  } finally {
    cleanup();
  }
}
