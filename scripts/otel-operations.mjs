// src/otel/operations.ts, the table tracing names its spans from: every request of api.md (the
// endpoint map) as [HTTP method, path template, method name]. Read from api.md, so a method added
// there (npm run api-map) is named here by running this script, which `npm run api-map` does.
//   node scripts/otel-operations.mjs           writes src/otel/operations.ts
//   node scripts/otel-operations.mjs --check   fails when it is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const output = resolve(root, 'src/otel/operations.ts');

/** Each endpoint once, named after the method whose only request it is (a method of several requests names none it shares). */
export function operations(apiMap) {
  const byEndpoint = new Map();
  for (const line of apiMap.split('\n')) {
    const match = /^- `client\.([\w.]+)\(.*· (.+)$/.exec(line);
    if (!match) continue;
    const [, name, requests] = match;
    // The client's own helpers (checkKeys) send through the namespaces' methods.
    if (!name.includes('.')) continue;
    const endpoints = [...requests.matchAll(/`([A-Z]+) (\/[^`]*)`/g)].map(([, method, template]) => [method, template]);
    for (const [method, template] of endpoints) {
      const key = `${method} ${template}`;
      const single = endpoints.length === 1;
      const known = byEndpoint.get(key);
      // A method with this one request wins over one that sends it among others (updateMany, checkKeys).
      if (!known || (single && !known.single) || (single === known.single && name < known.name)) byEndpoint.set(key, { method, template, name, single });
    }
  }
  return [...byEndpoint.values()].sort((a, b) => (a.name === b.name ? a.template.localeCompare(b.template) : a.name.localeCompare(b.name)));
}

export function render(list) {
  const rows = list.map(({ method, template, name }) => `  ['${method}', '${template}', '${name}'],`).join('\n');
  return `// Generated from api.md by scripts/otel-operations.mjs (npm run api-map): do not edit.
/** Every request the client sends: HTTP method, path template, the method that sends it. */
export const OPERATIONS: readonly (readonly [method: string, template: string, name: string])[] = [
${rows}
];
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = render(operations(readFileSync(resolve(root, 'api.md'), 'utf8')));
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(output, 'utf8');
    } catch {}
    if (current !== text) {
      console.error('src/otel/operations.ts is stale: run npm run api-map');
      process.exit(1);
    }
  } else writeFileSync(output, text);
}
