// Completes package-lock.json with the platform-specific optional packages of other
// systems (darwin, win32, musl, ...). The npm registry this project's machines reach
// serves only the linux/glibc builds, so `npm install` leaves the others out of the
// lockfile, and then `npm ci` refuses it ("Missing: @rollup/rollup-darwin-x64@ from
// lock file"). An entry with its os/cpu/libc is all `npm ci` needs to skip a package
// built for another platform; nothing is downloaded for it.
// Run after any `npm install` that changes the lockfile: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const OSES = ['android', 'darwin', 'freebsd', 'linux', 'netbsd', 'openbsd', 'openharmony', 'sunos', 'win32', 'aix'];
const CPUS = ['arm64', 'x64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

/** `@rollup/rollup-linux-arm64-musl` → { os: ['linux'], cpu: ['arm64'], libc: ['musl'] } */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OSES.includes(p));
  const cpu = parts.find((p) => CPUS.includes(p)) ?? (parts.includes('eabi') || parts.some((p) => p.startsWith('gnueabi') || p.startsWith('musleabi')) ? 'arm' : undefined);
  if (!os || !cpu) return undefined;
  const libc = os !== 'linux' ? undefined : parts.some((p) => p.startsWith('musl')) ? 'musl' : 'glibc';
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

const file = resolve(import.meta.dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const added = [];

for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key] || packages[`${location}/${key}`]) continue;
    const platform = platformOf(name);
    if (!platform) {
      console.warn(`left alone: ${name} (no platform in its name)`);
      continue;
    }
    packages[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added.push(name);
  }
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added.length} optional platform package(s) to package-lock.json`);
