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

/**
 * A type as text. The compiler's printer names a type by the alias it came from where that alias
 * is in scope, so a nested unnamed shape comes out as `InferShape<{ ... }>`: such a type is
 * written out here, a union member by member, an object property by property.
 */
function printType(type, enclosing, extraFlags = 0, withoutUndefined = false) {
  let node = checker.typeToTypeNode(type, enclosing, flags | extraFlags);
  if (!node) throw new Error(`cannot write out a type in ${enclosing.name.text}`);
  if (withoutUndefined && ts.isUnionTypeNode(node)) {
    const kept = node.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword);
    node = kept.length === 1 ? kept[0] : ts.factory.updateUnionTypeNode(node, ts.factory.createNodeArray(kept));
  }
  const text = printer.printNode(ts.EmitHint.Unspecified, node, enclosing.getSourceFile());
  if (!namesZod(text)) return text;
  if (type.isUnion()) {
    return type.types
      .filter((member) => !(withoutUndefined && member.flags & ts.TypeFlags.Undefined))
      .map((member) => parenthesized(member, printType(member, enclosing)))
      .join(' | ');
  }
  if (checker.isArrayType(type)) {
    const [item] = checker.getTypeArguments(type);
    const readonly = type.target?.symbol?.name === 'ReadonlyArray' ? 'readonly ' : '';
    return `${readonly}${parenthesized(item, printType(item, enclosing))}[]`;
  }
  if (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return `{\n${membersOf(type, enclosing)}}`;
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
function membersOf(type, enclosing) {
  if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) throw new Error(`${enclosing.name.text}: call signatures are not written out`);
  const indexes = checker.getIndexInfosOfType(type).map((info) => {
    const key = printType(info.keyType, enclosing);
    return `    ${info.isReadonly ? 'readonly ' : ''}[key: ${key}]: ${indented(printType(info.type, enclosing), '    ')};\n`;
  });
  const properties = checker.getPropertiesOfType(type).map((property) => {
    const name = isIdentifierName(property.name) ? property.name : JSON.stringify(property.name);
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
    const type = checker.getTypeOfSymbol(property);
    const text = printType(type, enclosing, 0, undefinedOnlyFromOptionality(property, type));
    return `${docOf(property)}    ${name}${optional}: ${indented(text, '    ')};\n`;
  });
  return [...indexes, ...properties].join('');
}

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

/** An inferred interface, written out member by member (with the members' doc comments). */
function writeInterface(declaration) {
  const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(declaration.name));
  const modifiers = declaration.modifiers?.map((m) => `${m.getText()} `).join('') ?? '';
  return `${modifiers}interface ${declaration.name.text} {\n${membersOf(type, declaration)}}`;
}

/** An inferred type alias, written out as the type it stands for. */
function writeAlias(declaration) {
  const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(declaration.name));
  const modifiers = declaration.modifiers?.map((m) => `${m.getText()} `).join('') ?? '';
  return `${modifiers}type ${declaration.name.text} = ${printType(type, declaration, ts.NodeBuilderFlags.InTypeAlias)};`;
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

for (const [file, fileEdits] of edits) writeFileSync(file, withoutUnused(file, applied(readFileSync(file, 'utf8'), fileEdits)));

// The check: the declarations compile on their own, without zod in the program.
const written = ts.createProgram(files, options);
const problems = ts.getPreEmitDiagnostics(written).map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dist, getNewLine: () => '\n' }));
for (const sourceFile of written.getSourceFiles().filter(isZodFile)) problems.push(`zod's declarations are still loaded: ${sourceFile.fileName}`);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`declarations written out without zod: ${files.length} files`);
