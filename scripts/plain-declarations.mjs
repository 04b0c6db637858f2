// Runs after restore-type-exports (npm run build). The wire types are inferred from the zod
// schemas in src/schemas (one schema per wire shape, types never written twice), so tsup's
// declarations hold each shape as zod types plus the helpers that read them (`Infer`, `Maybe`, ...)
// and import zod: a consumer's compiler then loads and checks zod's declarations and evaluates the
// inference for every answer type (about half the type instantiations of a small project).
// This writes each inferred type out as what it is, a plain interface or type, drops the schema
// and shape constants (internal: the package exports none of them) and the helpers, and with them
// the zod import. The result is checked: it compiles without errors and no declaration imports zod.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { entries } from '../tsup.config.ts';

const dist = resolve(import.meta.dirname, '..', 'dist');
const files = readdirSync(dist)
  .filter((name) => /\.d\.c?ts$/.test(name))
  .map((name) => join(dist, name));

const options = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: [],
  // So the checker tells an optional member's own `undefined` from the one optionality adds.
  exactOptionalPropertyTypes: true,
};
const program = ts.createProgram(files, options);
const checker = program.getTypeChecker();
const printer = ts.createPrinter({ removeComments: false });
const flags =
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.MultilineObjectLiterals |
  ts.NodeBuilderFlags.IgnoreErrors |
  ts.NodeBuilderFlags.UseSingleQuotesForStringLiteralType;

// The declaration emitter writes a schema's inferred type out without its members' doc comments
// (`requestObject({ /** Price in integer cents. */ price: cents() })` becomes `price: z.ZodMiniInt`),
// so every written-out member takes its comment from the same type in the sources: its twin.
const sourceRoot = resolve(import.meta.dirname, '..', 'src');
const sourceConfig = ts.getParsedCommandLineOfConfigFile(resolve(import.meta.dirname, '..', 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const sourceProgram = ts.createProgram(
  Object.values(entries).map((entry) => resolve(import.meta.dirname, '..', entry)),
  { ...sourceConfig.options, noEmit: true },
);
const sourceChecker = sourceProgram.getTypeChecker();
/** Per name, the interfaces and type aliases of that name declared in src/. */
const sourceTypes = new Map();
for (const sourceFile of sourceProgram.getSourceFiles()) {
  if (!sourceFile.fileName.startsWith(sourceRoot)) continue;
  for (const statement of sourceFile.statements) {
    if (!(ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) || statement.typeParameters) continue;
    const symbol = sourceChecker.getSymbolAtLocation(statement.name);
    if (!symbol) continue;
    const list = sourceTypes.get(statement.name.text) ?? [];
    list.push(sourceChecker.getDeclaredTypeOfSymbol(symbol));
    sourceTypes.set(statement.name.text, list);
  }
}

const isZodFile = (sourceFile) => /[\\/]node_modules[\\/]zod[\\/]/.test(sourceFile.fileName);
const isTypeDeclaration = (node) => ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node);

/** The symbol a name means, through imports and re-exports. */
function resolved(identifier) {
  let symbol = checker.getSymbolAtLocation(identifier);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol;
}

// Helpers: generic types that read zod's types (`Schema<T>`, `Maybe<T>`, `Infer<F>`, ...), found by
// following references until nothing new turns up. A non-generic type that uses one is an inferred
// wire type: it is written out below. Merged symbols (an interface `Order` beside its schema
// constant `Order`) count only through their type declarations.
const helpers = new Set();
/** Whether `node` mentions zod or a helper. */
function mentionsZod(node) {
  let found = false;
  const visit = (child) => {
    if (found) return;
    if (ts.isIdentifier(child)) {
      const symbol = resolved(child);
      if (symbol?.declarations?.some((d) => isZodFile(d.getSourceFile()) || helpers.has(d))) found = true;
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}
const statements = files.flatMap((file) => program.getSourceFile(file).statements);
for (let grown = true; grown; ) {
  grown = false;
  for (const statement of statements) {
    if (isTypeDeclaration(statement) && statement.typeParameters && !helpers.has(statement) && mentionsZod(statement)) {
      helpers.add(statement);
      grown = true;
    }
  }
}

/** `text` moved right by `indent` on every line but the first. */
const indented = (text, indent) => text.replaceAll('\n', `\n${indent}`);

const helperNames = () => new Set([...helpers].map((h) => h.name.text));
/** Whether printed type text still names zod (`z.`) or a helper. */
function namesZod(text) {
  const names = helperNames();
  return [...text.matchAll(/([A-Za-z_$][\w$]*)\s*[<.]/g)].some(([, name]) => name === 'z' || names.has(name));
}

const propertyNames = (tc, type) => tc.getPropertiesOfType(type).map((p) => p.name).sort().join(',');
/** An object type written out inline (not a named interface, a tuple or a function). */
const isInlineObject = (tc, type) =>
  !!(type.flags & ts.TypeFlags.Object) &&
  !tc.isArrayType(type) &&
  !tc.isTupleType(type) &&
  tc.getSignaturesOfType(type, ts.SignatureKind.Call).length === 0 &&
  (type.symbol?.name === '__type' || type.symbol?.name === '__object' || type.symbol?.flags & ts.SymbolFlags.TypeLiteral || !!(type.objectFlags & ts.ObjectFlags.Mapped));
/** The source twin of a declaration in dist: same name (less a bundler's `$1`), same members. */
function twinOf(declaration, type) {
  const candidates = sourceTypes.get(declaration.name.text.replace(/\$\d+$/, '')) ?? [];
  const members = propertyNames(checker, type);
  return candidates.find((candidate) => propertyNames(sourceChecker, candidate) === members) ?? candidates[0];
}
/** The member of a source twin (a union, or not) that matches `type`: the array, or the object with the same members. */
function twinPart(type, twin) {
  if (twin === undefined) return undefined;
  const options = twin.isUnion() ? twin.types : [twin];
  if (checker.isArrayType(type)) return options.find((option) => sourceChecker.isArrayType(option));
  if (type.flags & ts.TypeFlags.Object) {
    const members = propertyNames(checker, type);
    return options.find((option) => option.flags & ts.TypeFlags.Object && propertyNames(sourceChecker, option) === members);
  }
  return undefined;
}
/** Whether the twin has a doc comment on any member, at any depth (so the type is written out member by member). */
function documented(twin, depth = 0) {
  if (twin === undefined || depth > 8) return false;
  if (twin.isUnion() || twin.isIntersection()) return twin.types.some((t) => documented(t, depth + 1));
  if (sourceChecker.isArrayType(twin)) return documented(sourceChecker.getTypeArguments(twin)[0], depth + 1);
  if (!isInlineObject(sourceChecker, twin) && depth > 0) return false;
  if (!(twin.flags & ts.TypeFlags.Object) || sourceChecker.isTupleType(twin)) return false;
  return sourceChecker.getPropertiesOfType(twin).some((p) => docOf(p) !== '' || documented(sourceChecker.getTypeOfSymbol(p), depth + 1));
}

/**
 * A type as text. The compiler's printer names a type by the alias it came from where that alias
 * is in scope, so a nested unnamed shape comes out as `InferShape<{ ... }>`: such a type is
 * written out here, a union member by member, an object property by property.
 */
function printType(type, enclosing, extraFlags = 0, withoutUndefined = false, twin = undefined) {
  let node = checker.typeToTypeNode(type, enclosing, flags | extraFlags);
  if (!node) throw new Error(`cannot write out a type in ${enclosing.name.text}`);
  if (withoutUndefined && ts.isUnionTypeNode(node)) {
    const kept = node.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword);
    node = kept.length === 1 ? kept[0] : ts.factory.updateUnionTypeNode(node, ts.factory.createNodeArray(kept));
  }
  const text = printer.printNode(ts.EmitHint.Unspecified, node, enclosing.getSourceFile());
  // Inline object types with documented members in the source are written out to keep the comments.
  const keepDocs = text.includes('{') && documented(twin);
  if (!namesZod(text) && !keepDocs) return text;
  if (type.isUnion()) {
    const nullish = (member) => (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null) ? 1 : 0);
    return [...type.types]
      .sort((a, b) => nullish(a) - nullish(b))
      .filter((member) => !(withoutUndefined && member.flags & ts.TypeFlags.Undefined))
      .map((member) => parenthesized(member, printType(member, enclosing, 0, false, twinPart(member, twin))))
      .join(' | ');
  }
  if (checker.isArrayType(type)) {
    const [item] = checker.getTypeArguments(type);
    const readonly = type.target?.symbol?.name === 'ReadonlyArray' ? 'readonly ' : '';
    const list = twinPart(type, twin);
    const itemTwin = list === undefined ? undefined : sourceChecker.getTypeArguments(list)[0];
    return `${readonly}${parenthesized(item, printType(item, enclosing, 0, false, itemTwin))}[]`;
  }
  if (!namesZod(text) && !isInlineObject(checker, type)) return text;
  if (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return `{\n${membersOf(type, enclosing, twinPart(type, twin))}}`;
  throw new Error(`cannot write out ${text} in ${enclosing.name.text}`);
}

const parenthesized = (type, text) => (type.isUnion() || type.isIntersection() || text.includes('=>') ? `(${text})` : text);

/**
 * Whether an optional member's type holds `undefined` only because of its `?` (under
 * exactOptionalPropertyTypes a separate type from a declared `undefined`): it is left out, so
 * `meta?: M | null` stays that and does not become `meta?: M | null | undefined`.
 */
function undefinedOnlyFromOptionality(property, type) {
  if (!(property.flags & ts.SymbolFlags.Optional)) return false;
  const members = type.isUnion() ? type.types : [type];
  return !members.includes(checker.getUndefinedType()) && members.some((t) => t.flags & ts.TypeFlags.Undefined);
}

/** An object type's members, one per line, with their doc comments. */
function membersOf(type, enclosing, twin) {
  if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) throw new Error(`${enclosing.name.text}: call signatures are not written out`);
  const indexes = checker.getIndexInfosOfType(type).map((info) => {
    const key = printType(info.keyType, enclosing);
    return `    ${info.isReadonly ? 'readonly ' : ''}[key: ${key}]: ${indented(printType(info.type, enclosing), '    ')};\n`;
  });
  const properties = checker.getPropertiesOfType(type).map((property) => {
    const name = isIdentifierName(property.name) ? property.name : JSON.stringify(property.name);
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
    const type = checker.getTypeOfSymbol(property);
    const twinProperty = twin === undefined ? undefined : sourceChecker.getPropertyOfType(twin, property.name);
    const twinType = twinProperty === undefined ? undefined : sourceChecker.getTypeOfSymbol(twinProperty);
    const text = printType(type, enclosing, 0, undefinedOnlyFromOptionality(property, type), twinType);
    const doc = docOf(property) || (twinProperty === undefined ? '' : docOf(twinProperty));
    if (twinProperty !== undefined && docOf(twinProperty) !== '') keptDocs.add(`${enclosing.name.text}.${property.name}`);
    return `${doc}    ${name}${optional}: ${indented(text, '    ')};\n`;
  });
  return [...indexes, ...properties].join('');
}

/** `Interface.member` of each member whose source comment was written out (checked at the end). */
const keptDocs = new Set();

/** The doc comment written above a property's declaration, if it has one. */
function docOf(symbol) {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (!declaration) return '';
  const sourceFile = declaration.getSourceFile();
  const comments = ts.getLeadingCommentRanges(sourceFile.text, declaration.pos) ?? [];
  return comments
    .filter((range) => sourceFile.text.startsWith('/**', range.pos))
    .map((range) =>
      sourceFile.text
        .slice(range.pos, range.end)
        .split('\n')
        .map((line, i) => (i === 0 ? line : ` ${line.trim()}`))
        .join('\n'),
    )
    .map((comment) => `    ${indented(comment, '    ')}\n`)
    .join('');
}

const isIdentifierName = (name) => /^[A-Za-z_$][\w$]*$/.test(name);

/** Source comments a written-out declaration lacks: each is a build failure (checked at the end). */
const lostDocs = [];
function checkDocsKept(declaration, type, text) {
  const twin = twinOf(declaration, type);
  const declaredInSource = twin?.symbol?.declarations?.some((d) => d.getSourceFile().fileName.startsWith(sourceRoot));
  if (twin === undefined || !(isInlineObject(sourceChecker, twin) || declaredInSource)) return text;
  for (const property of sourceChecker.getPropertiesOfType(twin)) {
    const doc = docOf(property).trim().split('\n')[0];
    if (doc !== '' && !text.includes(doc)) lostDocs.push(`${declaration.name.text}.${property.name}`);
  }
  return text;
}

/** An inferred interface, written out member by member (with the members' doc comments). */
function writeInterface(declaration) {
  const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(declaration.name));
  const modifiers = declaration.modifiers?.map((m) => `${m.getText()} `).join('') ?? '';
  return checkDocsKept(declaration, type, `${modifiers}interface ${declaration.name.text} {\n${membersOf(type, declaration, twinOf(declaration, type))}}`);
}

/** An inferred type alias, written out as the type it stands for. */
function writeAlias(declaration) {
  const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(declaration.name));
  const modifiers = declaration.modifiers?.map((m) => `${m.getText()} `).join('') ?? '';
  return checkDocsKept(declaration, type, `${modifiers}type ${declaration.name.text} = ${printType(type, declaration, ts.NodeBuilderFlags.InTypeAlias, false, twinOf(declaration, type))};`);
}

const exportLists = (sourceFile) =>
  sourceFile.statements.filter((s) => ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause));
const importLists = (sourceFile) =>
  sourceFile.statements.filter((s) => ts.isImportDeclaration(s) && s.importClause?.namedBindings && ts.isNamedImports(s.importClause.namedBindings));
const localOf = (element) => (element.propertyName ?? element.name).text;
const isEntry = (file) => Object.keys(entries).some((name) => file === join(dist, `${name}.d.ts`) || file === join(dist, `${name}.d.cts`));
/** Whether any file exports a name (which, in a bundle, names one declaration). */
function exportedAnywhere(name) {
  return files.some((file) =>
    exportLists(program.getSourceFile(file)).some((s) => s.exportClause.elements.some((e) => localOf(e) === name || e.name.text === name)),
  );
}
const edits = new Map(files.map((file) => [file, []]));
/** Per file, the top-level names that go entirely (helpers, constants with no interface beside them). */
const droppedLocals = new Map();
/** Per file, constants that go (their name may stay, as the interface beside it). */
const droppedValues = new Map();

for (const file of files) {
  const sourceFile = program.getSourceFile(file);
  const fileEdits = edits.get(file);
  const locals = new Set();
  const values = new Set();
  const typeNames = new Set(sourceFile.statements.filter(isTypeDeclaration).map((s) => s.name.text));
  for (const statement of sourceFile.statements) {
    const whole = { start: statement.getFullStart(), end: statement.end, text: '' };
    if (helpers.has(statement)) {
      fileEdits.push(whole);
      locals.add(statement.name.text);
    } else if (isTypeDeclaration(statement) && mentionsZod(statement)) {
      const text = ts.isInterfaceDeclaration(statement) ? writeInterface(statement) : writeAlias(statement);
      fileEdits.push({ start: statement.getStart(), end: statement.end, text });
    } else if (ts.isVariableStatement(statement) && mentionsZod(statement)) {
      // A schema or shape constant: values the JavaScript keeps internal.
      fileEdits.push(whole);
      for (const { name } of statement.declarationList.declarations) {
        values.add(name.text);
        if (!typeNames.has(name.text)) locals.add(name.text);
      }
    } else if (ts.isClassDeclaration(statement) && mentionsZod(statement)) {
      // The transport: internal, in the declarations only as the namespaces' protected `_transport`.
      // Its request methods take schemas; users never call them, so they go.
      if (exportedAnywhere(statement.name.text)) throw new Error(`${file}: the exported class ${statement.name.text} mentions zod`);
      for (const member of statement.members) {
        if (mentionsZod(member)) fileEdits.push({ start: member.getFullStart(), end: member.end, text: '' });
      }
    } else if (ts.isImportDeclaration(statement) && /^['"]zod/.test(statement.moduleSpecifier.getText())) {
      fileEdits.push(whole);
    }
  }
  droppedLocals.set(file, locals);
  droppedValues.set(file, values);
}

const moduleFile = (from, specifier) => {
  const target = join(dist, specifier.replace(/\.c?js$/, (extension) => (extension === '.cjs' ? '.d.cts' : '.d.ts')));
  if (!edits.has(target)) throw new Error(`${from}: cannot find the declarations of ${specifier}`);
  return target;
};

/** Per file, the exported names that go (their local name went) and those whose constant went. */
const droppedExports = new Map(files.map((file) => [file, new Set()]));
const droppedValueExports = new Map(files.map((file) => [file, new Set()]));
/** Whether an export list's element names something that went (`dropped`) or whose constant went (`value`). */
function exportedFate(file, statement, element) {
  if (!statement.moduleSpecifier) {
    return { dropped: droppedLocals.get(file).has(localOf(element)), value: droppedValues.get(file).has(localOf(element)) };
  }
  const target = moduleFile(file, statement.moduleSpecifier.text);
  return { dropped: droppedExports.get(target).has(localOf(element)), value: droppedValueExports.get(target).has(localOf(element)) };
}
// Entries re-export from other files (webhooks from its chunk, the root from webhooks): repeat until settled.
for (let grown = true; grown; ) {
  grown = false;
  for (const file of files) {
    for (const statement of exportLists(program.getSourceFile(file))) {
      for (const element of statement.exportClause.elements) {
        const fate = exportedFate(file, statement, element);
        for (const [set, yes] of [
          [droppedExports.get(file), fate.dropped],
          [droppedValueExports.get(file), fate.value],
        ]) {
          if (yes && !set.has(element.name.text)) {
            set.add(element.name.text);
            grown = true;
          }
        }
      }
    }
  }
}
// An entry's value export of a schema constant: the JavaScript would lack it.
for (const file of files.filter(isEntry)) {
  for (const statement of exportLists(program.getSourceFile(file))) {
    for (const element of statement.exportClause.elements) {
      if (!statement.isTypeOnly && !element.isTypeOnly && droppedValueExports.get(file).has(element.name.text)) {
        throw new Error(`${file}: exports the schema constant ${element.name.text} as a value`);
      }
    }
  }
}

/** An import or export list without the elements that went (or nothing, when none is left). */
function rewriteList(statement, keep) {
  const elements = (ts.isImportDeclaration(statement) ? statement.importClause.namedBindings : statement.exportClause).elements;
  const kept = elements.filter(keep);
  if (kept.length === elements.length) return undefined;
  const start = statement.getFullStart();
  if (kept.length === 0) return { start, end: statement.end, text: '' };
  const list = `{ ${kept.map((e) => e.getText()).join(', ')} }`;
  const bindings = ts.isImportDeclaration(statement) ? statement.importClause.namedBindings : statement.exportClause;
  return { start: bindings.getStart(), end: bindings.end, text: list };
}

for (const file of files) {
  const sourceFile = program.getSourceFile(file);
  for (const statement of importLists(sourceFile)) {
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith('.')) continue;
    const dropped = droppedExports.get(moduleFile(file, specifier));
    const edit = rewriteList(statement, (element) => !dropped.has(localOf(element)));
    if (edit) edits.get(file).push(edit);
  }
  for (const statement of exportLists(sourceFile)) {
    const edit = rewriteList(statement, (element) => !exportedFate(file, statement, element).dropped);
    if (edit) edits.get(file).push(edit);
  }
}

const applied = (text, fileEdits) =>
  fileEdits.sort((a, b) => b.start - a.start).reduce((result, edit) => result.slice(0, edit.start) + edit.text + result.slice(edit.end), text);

/**
 * Types only the dropped members and constants used (the transport's request spec, ...): a type
 * or class that is neither exported nor named anywhere else in its file goes, until none is left.
 */
const isPrunable = (node) => isTypeDeclaration(node) || (ts.isClassDeclaration(node) && node.name !== undefined);
function withoutUnused(file, text) {
  for (;;) {
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const uses = new Map();
    const count = (node) => {
      if (ts.isIdentifier(node) && !(isPrunable(node.parent) && node.parent.name === node)) uses.set(node.text, (uses.get(node.text) ?? 0) + 1);
      ts.forEachChild(node, count);
    };
    count(sourceFile);
    const unused = sourceFile.statements.filter((s) => isPrunable(s) && !uses.has(s.name.text));
    if (unused.length === 0) return text;
    text = applied(
      text,
      unused.map((s) => ({ start: s.getFullStart(), end: s.end, text: '' })),
    );
  }
}

/** Each built file's import name, from package.json's exports map (`./dist/testing-msw.js` is `emporio/testing/msw`). */
const importNames = new Map(
  Object.entries(JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'package.json'), 'utf8')).exports)
    .filter(([, target]) => typeof target === 'object')
    .map(([subpath, target]) => [target.import.default.replace(/^\.\/dist\/|\.js$/g, ''), subpath === '.' ? 'emporio' : `emporio/${subpath.slice(2)}`]),
);
/** An entry's import name (`index` is `emporio`, `testing-msw` is `emporio/testing/msw`), for the API reference's module names. */
const moduleNameOf = (file) => {
  const name = Object.keys(entries).find((key) => file === join(dist, `${key}.d.ts`) || file === join(dist, `${key}.d.cts`));
  return importNames.get(name) ?? `emporio/${name}`;
};
const moduleComment = (file) => (isEntry(file) ? `/**\n * The \`${moduleNameOf(file)}\` entry.\n * @module ${moduleNameOf(file)}\n */\n` : '');

for (const [file, fileEdits] of edits) writeFileSync(file, moduleComment(file) + withoutUnused(file, applied(readFileSync(file, 'utf8'), fileEdits)));

// The check: the declarations compile on their own, without zod in the program.
const written = ts.createProgram(files, options);
const problems = ts.getPreEmitDiagnostics(written).map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dist, getNewLine: () => '\n' }));
for (const sourceFile of written.getSourceFiles().filter(isZodFile)) problems.push(`zod's declarations are still loaded: ${sourceFile.fileName}`);
for (const member of new Set(lostDocs)) problems.push(`${member}: its doc comment in src/ is missing from the declarations`);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`declarations written out without zod: ${files.length} files`);
