// What an editor shows on hover over a request member, read from the package's declarations as a
// consumer resolves them (ESM and CommonJS): each listed member must carry its doc comment, and the
// words users need most (prices in integer cents) must be in it. Run by scripts/smoke-packed.mjs
// against the installed tarball; alone, against this repository's dist/ (after `npm run build`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** `Type.member` (a path through arrays and unions for nested ones) → words its doc comment must hold. */
const expected = {
  'ProductUpdate.price': 'integer cents',
  'ProductUpdate.quantity': '',
  'ProductUpdate.variations.price': 'integer cents',
  'Variation.price': 'integer cents',
  'AcceptParams.pickup_location': 'accept_options.pickup_location',
  'AcceptParams.pickup_window': 'accept_options.pickup_window',
  'AcceptParams.number_of_parcels': '',
  'RejectParams.line_items': '',
  'RejectParams.line_items.reason_id': 'reject_options',
  'RejectParams.rejection_reason_other': '',
  'PurchaseOrderInput.expected_date': '',
  'PurchaseOrderInput.line_items': '',
  'CategorySkusParams.order_by': '',
  'SupplierInput.email': '',
};

/**
 * Checks the doc comments of `expected` as a consumer in `project` (where `emporio` resolves)
 * sees them. Returns the failures (empty when all is well).
 */
export function checkDeclarationDocs(project, { typeRoots } = {}) {
  const dir = mkdtempSync(join(project, '.docs-check-'));
  try {
    const names = [...new Set(Object.keys(expected).map((path) => path.split('.')[0]))];
    const importLine = `import type { ${names.join(', ')} } from 'emporio';\nexport type All = [${names.join(', ')}];\n`;
    writeFileSync(join(dir, 'esm.mts'), importLine);
    writeFileSync(join(dir, 'cjs.cts'), importLine);
    const program = ts.createProgram([join(dir, 'esm.mts'), join(dir, 'cjs.cts')], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      types: [],
      ...(typeRoots ? { typeRoots } : {}),
    });
    const checker = program.getTypeChecker();
    const failures = [];
    for (const file of ['esm.mts', 'cjs.cts']) {
      const sourceFile = program.getSourceFile(join(dir, file));
      const alias = sourceFile.statements.find((s) => ts.isTypeAliasDeclaration(s));
      const tuple = checker.getTypeAtLocation(alias.name);
      const types = new Map(names.map((name, i) => [name, checker.getTypeArguments(tuple)[i]]));
      for (const [path, words] of Object.entries(expected)) {
        const [name, ...members] = path.split('.');
        const type = types.get(name);
        const doc = type === undefined ? undefined : docAt(checker, type, members);
        if (doc === undefined) failures.push(`${file}: ${path} is not a member`);
        else if (doc === '') failures.push(`${file}: ${path} has no doc comment in the published declarations`);
        else if (!doc.includes(words)) failures.push(`${file}: ${path}'s doc comment does not say "${words}": ${doc}`);
      }
      if (types.get('ProductUpdate')?.flags & ts.TypeFlags.Any) failures.push(`${file}: emporio's types did not resolve`);
    }
    failures.push(...checkHovers(dir, typeRoots));
    return failures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What an editor shows for a few values users hover first: named types, not their structure. */
const hovers = {
  mock: 'MockMarketplace',
  handlers: 'MswHandlerList',
  invoice: 'APIPromise<SuccessAnswer | undefined>',
};

function checkHovers(dir, typeRoots) {
  const file = join(dir, 'hover.mts');
  writeFileSync(
    file,
    `import type { MarketplaceClient } from 'emporio';
import { createMockMarketplace } from 'emporio/testing';
declare const client: MarketplaceClient;
export const mock = createMockMarketplace();
export const handlers = mock.handlers;
export const invoice = client.orders.uploadInvoice('260330-1', new Uint8Array(4));
`,
  );
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    ...(typeRoots ? { typeRoots } : {}),
  });
  const checker = program.getTypeChecker();
  const failures = [];
  for (const statement of program.getSourceFile(file).statements) {
    if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const declaration = statement.declarationList.declarations[0];
    const shown = checker.typeToString(checker.getTypeAtLocation(declaration.name));
    const wanted = hovers[declaration.name.text];
    if (shown !== wanted) failures.push(`hover: ${declaration.name.text} shows ${shown.slice(0, 200)}, not ${wanted}`);
  }
  return failures;
}

/** The doc comment of the member at `members` (through arrays, unions and optionality), or undefined. */
function docAt(checker, type, members) {
  let current = type;
  let symbol;
  for (const member of members) {
    const options = (current.isUnion() ? current.types : [current]).map((t) => (checker.isArrayType(t) ? checker.getTypeArguments(t)[0] : t));
    symbol = options.map((t) => checker.getPropertyOfType(t, member)).find(Boolean);
    if (symbol === undefined) return undefined;
    current = checker.getTypeOfSymbol(symbol);
  }
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const failures = checkDeclarationDocs(join(import.meta.dirname, '..'));
  for (const failure of failures) console.error('FAIL', failure);
  if (failures.length > 0) process.exit(1);
  console.log(`declarations: doc comments of ${Object.keys(expected).length} request members kept (ESM and CommonJS); ${Object.keys(hovers).length} hovers named`);
}
