// api.md, the endpoint map: one line per public method of MarketplaceClient's namespaces, with what
// it resolves to and the HTTP request(s) it sends, read from the source with the TypeScript compiler:
//   client.orders.accept(code, params) → void · POST /merchants/ecommerce/orders/{code}/accept
// The namespaces are found by walking MarketplaceClient's public properties (every class under
// src/resources), so a new namespace or method needs nothing here. A method's requests are the
// request descriptions (object literals with a `path`) in its body and in the functions and methods
// it calls, followed with their arguments bound, so `this.#act(code, 'accept')` gives `.../accept`.
//   node scripts/api-map.mjs           writes api.md
//   node scripts/api-map.mjs --check   fails when a method's line in api.md differs from the source's in
//                                      any part (parameters, answer, requests), a method has none or a
//                                      line names no method, or a request is not found or not resolved
// Imported (test/scripts/api-map.test.ts), it runs nothing: `generateApiMap()` and `checkApiMap(text)`.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const output = resolve(root, 'api.md');
const sourceRoot = resolve(root, 'src') + sep;

const config = ts.getParsedCommandLineOfConfigFile(resolve(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram([resolve(root, 'src/index.ts')], { ...config.options, noEmit: true });
const checker = program.getTypeChecker();

const inSource = (node) => node.getSourceFile().fileName.startsWith(sourceRoot);
/** Where the transport (and the rest of core/) is: its methods send, they are not followed. */
const isCore = (node) => node.getSourceFile().fileName.startsWith(resolve(root, 'src/core') + sep);

function clientClass() {
  const file = program.getSourceFile(resolve(root, 'src/client.ts'));
  const found = file.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === 'MarketplaceClient');
  if (!found) throw new Error('src/client.ts: no class MarketplaceClient');
  return found;
}

const isPublic = (declaration) =>
  !(ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Static)) &&
  !(declaration.name && ts.isPrivateIdentifier(declaration.name)) &&
  !declaration.name?.getText().startsWith('_');

/** Every public method reachable from the client: `[dotted path, method declaration]`. */
function publicMethods(classDeclaration, prefix, seen = new Set()) {
  const out = [];
  const type = checker.getTypeAtLocation(classDeclaration);
  for (const property of checker.getPropertiesOfType(type)) {
    const declaration = property.valueDeclaration;
    if (!declaration || !isPublic(declaration) || !inSource(declaration)) continue;
    const name = `${prefix}.${property.name}`;
    if (ts.isMethodDeclaration(declaration)) {
      out.push([name, declaration]);
    } else if (ts.isPropertyDeclaration(declaration)) {
      const target = checker.getTypeOfSymbol(property).getSymbol()?.valueDeclaration;
      if (target && ts.isClassDeclaration(target) && inSource(target) && !seen.has(target)) {
        seen.add(target);
        out.push(...publicMethods(target, name, seen));
      }
    }
  }
  return out;
}

// ---- values of expressions: string literals, templates, constants; the rest becomes `{name}` -----

const UNKNOWN = (text) => `{${text}}`;
/** Between the values of a conditional: `/json/shops/ or /json/shops/{letter}/` (one request each). */
const CHOICE = ' or ';
/** Between the requests of one choice in a method's list of requests. */
const ALTERNATIVES = '\n';
/** An expression as the path or method it stands for, given the bindings of the functions followed. */
function evaluate(node, env, depth = 0) {
  if (depth > 8) return UNKNOWN('…');
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTaggedTemplateExpression(node)) return evaluate(node.template, env, depth + 1);
  if (ts.isTemplateExpression(node)) {
    return node.templateSpans.reduce((text, span) => text + evaluate(span.expression, env, depth + 1) + span.literal.text, node.head.text);
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression?.(node)) {
    return evaluate(node.expression, env, depth + 1);
  }
  if (ts.isIdentifier(node)) {
    if (env.has(node.text)) return env.get(node.text);
    const declaration = symbolOf(node)?.valueDeclaration;
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) {
      const value = evaluate(declaration.initializer, env, depth + 1);
      // A choice between values not known here (`typeof x === 'string' ? x : codeOf(x)`) is named after
      // the constant; a choice between paths (`letter === undefined ? '/json/shops/' : path\`...\``) is kept.
      const unknownChoice = ts.isConditionalExpression(declaration.initializer) && value.split(CHOICE).some((choice) => !choice.startsWith('/'));
      if (!value.includes('{…}') && !unknownChoice) return value;
    }
    return UNKNOWN(node.text);
  }
  if (ts.isPropertyAccessExpression(node)) return UNKNOWN(node.name.text);
  if (ts.isConditionalExpression(node)) {
    const [a, b] = [evaluate(node.whenTrue, env, depth + 1), evaluate(node.whenFalse, env, depth + 1)];
    return a === b ? a : `${a}${CHOICE}${b}`;
  }
  if (ts.isCallExpression(node)) {
    // A helper (`orderPath(code)`, `listIdSegment(id)`): what it returns, with its parameters bound;
    // otherwise the value is named after the argument it was made from.
    const target = declarationOf(node.expression);
    const returned = target && returnedExpression(target);
    const value = returned ? evaluate(returned, bind(target, node.arguments, env, depth), depth + 1) : UNKNOWN('…');
    // Named after the argument it was made from: a parameter of ours first (`checkKind(Kinds, kind)` → `{kind}`).
    const named = node.arguments.filter((arg) => ts.isIdentifier(arg) || ts.isPropertyAccessExpression(arg));
    const parameter = named.find((arg) => ts.isIdentifier(arg) && (env.has(arg.text) || isParameter(arg)));
    const from = parameter ?? named[0];
    if (value.includes('{…}') && from) return evaluate(from, env, depth + 1);
    return value;
  }
  return UNKNOWN('…');
}

const isParameter = (identifier) => {
  const declaration = symbolOf(identifier)?.valueDeclaration;
  return declaration !== undefined && ts.isParameter(declaration);
};

function symbolOf(node) {
  let symbol = checker.getSymbolAtLocation(node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol;
}

/** The function or method a callee names, when it is ours (src/, not core/). */
function declarationOf(callee) {
  const symbol = symbolOf(ts.isPropertyAccessExpression(callee) ? callee.name : callee);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (!declaration || !inSource(declaration) || isCore(declaration)) return undefined;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer && ts.isArrowFunction(declaration.initializer)) return declaration.initializer;
  if (ts.isMethodDeclaration(declaration) || ts.isFunctionDeclaration(declaration) || ts.isArrowFunction(declaration)) return declaration;
  return undefined;
}

const functionBody = (fn) => fn.body;

/** The expression a function returns: its expression body, or its block's one return statement. */
function returnedExpression(fn) {
  if (!fn.body) return undefined;
  if (ts.isExpression(fn.body)) return fn.body;
  const returns = fn.body.statements.filter(ts.isReturnStatement);
  return returns.length === 1 ? returns[0].expression : undefined;
}

/** The parameters of `fn` bound to the call's argument values. */
function bind(fn, args, env, depth) {
  const bound = new Map();
  fn.parameters.forEach((parameter, i) => {
    if (!ts.isIdentifier(parameter.name)) return;
    const arg = args[i];
    bound.set(parameter.name.text, arg === undefined ? UNKNOWN(parameter.name.text) : evaluate(arg, env, depth + 1));
  });
  return bound;
}

// ---- the requests a method sends ---------------------------------------------------------------

/** `METHOD /path` of each request description under `node`, following calls into our own code. */
function requestsOf(node, env, visited, depth = 0) {
  const found = [];
  const visit = (child) => {
    if (ts.isObjectLiteralExpression(child)) {
      const member = (name) => child.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === name);
      const path = member('path');
      // A request description, not a validation issue's `{ path, message }`.
      if (path && ['api', 'schema', 'result', 'querySchema', 'form'].some((name) => member(name))) {
        const method = member('method');
        const verb = method ? evaluate(method.initializer, env) : 'GET';
        // One request of several, chosen by the arguments: kept together, written `A` or `B`.
        found.push(evaluate(path.initializer, env).split(CHOICE).map((choice) => `${verb} ${choice}`).join(ALTERNATIVES));
      }
    }
    if (ts.isCallExpression(child) && depth < 6) {
      const target = declarationOf(child.expression);
      if (target && !visited.has(target)) {
        visited.add(target);
        const body = functionBody(target);
        if (body) found.push(...requestsOf(body, bind(target, child.arguments, env, depth), visited, depth + 1));
        visited.delete(target);
      }
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** What a method resolves to: `T` of `APIPromise<T>` / `Promise<T>`, `Page<T>` for a paginated list. */
function answerOf(method) {
  const signature = checker.getSignatureFromDeclaration(method);
  const returned = signature.getReturnType();
  const name = returned.getSymbol()?.name ?? returned.aliasSymbol?.name;
  const [argument] = checker.getTypeArguments(returned) ?? returned.aliasTypeArguments ?? [];
  const shown = (type) => checker.typeToString(type, method, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType);
  const typeArgument = argument ?? returned.aliasTypeArguments?.[0];
  if (name === 'PagePromise' && typeArgument) return `Page<${shown(typeArgument)}>`;
  if ((name === 'APIPromise' || name === 'Promise') && typeArgument) return shown(typeArgument);
  return shown(returned);
}

/**
 * The requests a reader needs: a GET of a resource that the method also changes (the read-back
 * after a lost answer, `GET .../{code}` beside `POST .../{code}/accept`) is left out, and so is a
 * request description passed through generically (`{path}`) when resolved ones exist.
 */
function primary(requests) {
  const resolved = requests.filter((request) => request.split(' ')[1]?.startsWith('/'));
  const kept = resolved.length > 0 ? resolved : requests;
  const changes = kept.filter((request) => !request.startsWith('GET '));
  return kept.filter((request) => {
    if (!request.startsWith('GET ')) return true;
    const target = request.slice(4);
    return !changes.some((change) => change.split(' ')[1]?.startsWith(`${target}/`));
  });
}

/** The members every call's last argument has (`signal`, `timeout`, ...): not shown. */
const requestOptionMembers = (() => {
  const file = program.getSourceFile(resolve(root, 'src/core/request.ts'));
  const declaration = file?.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === 'RequestOptions');
  if (!declaration) throw new Error('src/core/request.ts: no interface RequestOptions');
  return new Set(checker.getPropertiesOfType(checker.getTypeAtLocation(declaration)).map((member) => member.name));
})();

/**
 * A method's parameters as a reader calls it: the last `options` is left out when it is the plain
 * `RequestOptions`, and shown by its own members when it adds some (`orders.get(code, { actionOptions }?)`).
 */
function parametersOf(method) {
  const shown = (parameter) => `${parameter.dotDotDotToken ? '...' : ''}${parameter.name.getText()}`;
  const optional = (parameter) => (parameter.questionToken || parameter.initializer ? '?' : '');
  return method.parameters
    .map((parameter, i) => {
      if (i !== method.parameters.length - 1 || parameter.name.getText() !== 'options') return `${shown(parameter)}${optional(parameter)}`;
      const type = checker.getNonNullableType(checker.getTypeAtLocation(parameter));
      const own = checker.getPropertiesOfType(type).filter((member) => !requestOptionMembers.has(member.name));
      return own.length === 0 ? undefined : `{ ${own.map((member) => member.name).join(', ')} }${optional(parameter)}`;
    })
    .filter((text) => text !== undefined)
    .join(', ');
}

// ---- api.md ------------------------------------------------------------------------------------

/** A request as the map writes it: a method and a path of the service (a resolved one). */
const WELL_FORMED = /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/;

/** api.md's text, with each method's line and what could not be resolved. */
export function generateApiMap() {
  const methods = publicMethods(clientClass(), 'client').sort(([a], [b]) => a.localeCompare(b));
  const problems = [];
  const lines = new Map();
  const sections = new Map();
  for (const [name, declaration] of methods) {
    const requests = primary([...new Set(requestsOf(declaration.body, new Map(), new Set([declaration])))]);
    const where = `${name} (${relative(root, declaration.getSourceFile().fileName)})`;
    if (requests.length === 0) problems.push(`no HTTP request found for ${where}`);
    const malformed = requests.flatMap((request) => request.split(ALTERNATIVES)).filter((request) => !WELL_FORMED.test(request));
    if (malformed.length > 0) problems.push(`requests not resolved for ${where}: ${malformed.join(' + ')}`);
    const line = `- \`${name}(${parametersOf(declaration)})\` → \`${answerOf(declaration)}\` · ${requests.length ? requests.map((r) => `\`${r.split(ALTERNATIVES).join('` or `')}\``).join(' + ') : 'no request found'}`;
    lines.set(name, line);
    const section = name.split('.').slice(0, 2).join('.');
    sections.set(section, [...(sections.get(section) ?? []), line]);
  }
  const text = `# emporio: endpoint map

Every public method of \`MarketplaceClient\`, what it resolves to, and the HTTP request(s) it sends
(paths relative to \`baseUrl\`; legacy v2 calls go to \`legacyBaseUrl\`). Generated from the source by
\`npm run api-map\` (scripts/api-map.mjs); CI fails when a line here differs from the source.
${[...sections].map(([section, sectionLines]) => `\n## ${section}\n\n${sectionLines.join('\n')}\n`).join('')}`;
  return { text, lines, problems };
}

/** The method a line of api.md is about: `- \`client.orders.get(code)\` → ...` → `client.orders.get`. */
const methodOfLine = (line) => /^- `(client(?:\.\w+)+)\(/.exec(line)?.[1];

/**
 * What is wrong with `committed` (api.md's text) against the source: each method's whole line is
 * compared (parameters, answer, requests), so a stale or incomplete line fails, as do a method
 * without a line, a line without a method, and requests the generator could not resolve.
 */
export function checkApiMap(committed, generated = generateApiMap()) {
  const problems = [...generated.problems];
  const committedLines = new Map();
  for (const line of committed.split('\n')) {
    const name = methodOfLine(line);
    if (name) committedLines.set(name, line);
  }
  for (const [name, line] of generated.lines) {
    const written = committedLines.get(name);
    if (written === undefined) problems.push(`api.md has no line for ${name}; the source's:\n  ${line}`);
    else if (written !== line) problems.push(`api.md's line for ${name} differs from the source:\n  api.md: ${written}\n  source: ${line}`);
  }
  for (const name of committedLines.keys()) if (!generated.lines.has(name)) problems.push(`api.md has a line for ${name}, which is no public method`);
  if (problems.length === 0 && committed !== generated.text) problems.push('api.md differs from the source in its headings or order');
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const generated = generateApiMap();
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(output, 'utf8');
    } catch {}
    const problems = checkApiMap(committed, generated);
    if (problems.length) {
      console.error(`${problems.join('\n')}\n(run npm run api-map to write api.md from the source)`);
      process.exit(1);
    }
    console.log(`api.md: ${generated.lines.size} public methods, up to date`);
  } else {
    writeFileSync(output, generated.text);
    console.log(`api.md: ${generated.lines.size} public methods${generated.problems.length ? `\n${generated.problems.join('\n')}` : ''}`);
    if (generated.problems.length) process.exitCode = 1;
  }
}
