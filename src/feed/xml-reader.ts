/**
 * Reads an XML feed as it streams in, on saxes: both published layouts (the examples'
 * `mywebstore`, `id`, `price_with_vat`, `additionalimage` and the XSDs' `storedata`, `uid`,
 * `price`, `additional_image`) and the other spellings the documentation shows (`UniqueID`,
 * `<product id="…">`, `title`), element names compared without regard to case. A spelling other
 * than the writer's is a warning, said once per feed. Memory stays bounded: one product at a
 * time, markup or text that runs on without end is cut off, and so is nesting past 64 levels.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { PRODUCT_ELEMENTS, VARIATION_ELEMENTS } from './names.js';
import { AttributeLines, finishProduct, type ReadContext, warnOnce } from './read-context.js';

const ROOT = 'mywebstore';
const CREATED_AT = /^\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}|T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?)$/;
/** Text or markup with no event for this long (characters) is cut off: an endless value or tag. */
const MAX_RUN = 16 * 1024 * 1024;
/** Deeper nesting ends the read: a feed's is six (mywebstore, products, product, variations, variation, value). */
const MAX_DEPTH = 64;
/** A value is kept up to this length: enough to say it is too long. */
const MAX_VALUE = 64 * 1024;

/** Stops the parse from inside a handler. */
class Stop extends Error {}

interface Field {
  attribute: string;
  /** Where the value goes: the key in the product's or variation's values, or one of the images, or created_at. */
  key: string;
  kind: 'value' | 'image' | 'created_at';
  depth: number;
  line: number;
  text: string;
  nested: boolean;
}

/** What an element's name means, found once per distinct name. */
interface ElementName {
  name: string;
  lower: string;
  product: readonly [string, string] | undefined;
  variation: readonly [string, string] | undefined;
}

/** Distinct names remembered: a feed uses a few dozen; a hostile one cannot grow the cache. */
const MAX_NAMES = 256;

interface Record_ {
  values: Record<string, unknown>;
  depth: number;
  line: number;
}

/** Feeds decoded text to the parser; `line()` is where it is. */
export interface XmlReader {
  /** False once the read has ended (a fatal error): nothing more need be read. */
  write(text: string): boolean;
  close(): void;
  line(): number;
}

export function createXmlReader(context: ReadContext, skippedLines = 0): XmlReader {
  const parser = new SaxesParser({ position: true, xmlns: false });
  /** The line in the feed: the parser's, after the blank lines read before it was given the text. */
  const at = () => parser.line + skippedLines;
  const { builder } = context;
  let depth = 0;
  let rootSeen = false;
  let createdAt: string | undefined;
  let product: Record_ | undefined;
  const lines = new AttributeLines();
  let images: string[] = [];
  let variations: Record<string, unknown>[] = [];
  let variationsDepth = -1;
  let variation: Record_ | undefined;
  let field: Field | undefined;
  let sinceEvent = 0;
  let stopped = false;

  // Names looked up by the name as written, not lower-cased and looked up per element (a million
  // products times some 17 elements): first in a small table picked by the name's length and end
  // characters (a comparison, no hashing of the name), then in a map.
  const names = new Map<string, ElementName>();
  const recent: (ElementName | undefined)[] = new Array(64).fill(undefined);
  const describe = (name: string): ElementName => {
    const at = (name.length * 7 + name.charCodeAt(0) * 3 + name.charCodeAt(name.length - 1)) & 63;
    const hit = recent[at];
    if (hit !== undefined && hit.name === name) return hit;
    let element = names.get(name);
    if (element === undefined) {
      const lower = name.toLowerCase();
      element = { name, lower, product: PRODUCT_ELEMENTS[lower], variation: VARIATION_ELEMENTS[lower] };
      if (names.size < MAX_NAMES) names.set(name, element);
    }
    recent[at] = element;
    return element;
  };

  // One field object, reused: fields do not nest, and a million products have some 15 each.
  const reused: Field = { attribute: '', key: '', kind: 'value', depth: 0, line: 0, text: '', nested: false };
  const open = (attribute: string, level: number, key: string, kind: Field['kind']): Field => {
    reused.attribute = attribute;
    reused.key = key;
    reused.kind = kind;
    reused.depth = level;
    reused.line = at();
    reused.text = '';
    reused.nested = false;
    return reused;
  };

  const fail = (rule: 'xml' | 'doctype' | 'too_large', message: string): never => {
    builder.fatal({ line: at(), rule, message });
    stopped = true;
    throw new Stop();
  };

  const spelling = (written: string, canonical: string, attribute: string) => {
    if (written === canonical) return;
    warnOnce(context, `spelling:${written}`, {
      line: at(),
      attribute,
      rule: 'spelling',
      message: `<${written}> is read as ${attribute}; the writer's name is <${canonical}> (the service reads both)`,
    });
  };

  const unknown = (name: string) =>
    warnOnce(context, `unknown:${name.toLowerCase()}`, {
      line: at(),
      rule: name.toLowerCase() === 'instock' ? 'deprecated' : 'unknown_element',
      message:
        name.toLowerCase() === 'instock'
          ? `<${name}> is deprecated and ignored by the service (availability and quantity say it)`
          : `<${name}> is not a feed attribute; it is ignored`,
    });

  parser.on('opentag', (tag: SaxesTagPlain) => {
    sinceEvent = 0;
    const name = tag.name;
    const element = describe(name);
    const lower = element.lower;
    // saxes keeps every open element: a feed nests six deep, a hostile one millions.
    if (++depth > MAX_DEPTH) fail('xml', `elements nest more than ${MAX_DEPTH} deep`);
    if (field !== undefined) {
      field.nested = true;
      return;
    }
    if (depth === 1) {
      rootSeen = true;
      if (name !== ROOT) {
        const which = lower === 'storedata' ? ' (the XSDs’ name)' : '';
        warnOnce(context, 'root', { line: at(), rule: 'spelling', message: `the root element is <${name}>${which}; the writer's is <${ROOT}>` });
      }
      return;
    }
    if (product === undefined) {
      if (lower === 'product') {
        product = { values: {}, depth, line: at() };
        for (const key in tag.attributes) {
          if (key.toLowerCase() === 'id') {
            product.values.id = tag.attributes[key]!.trim();
            lines.set('id', at());
            spelling(`${name} ${key}="…"`, 'id', 'id');
          }
        }
      } else if (lower === 'created_at' && depth === 2) {
        field = open('created_at', depth, 'created_at', 'created_at');
        if (name !== lower) spelling(name, lower, 'created_at');
      } else if (lower !== 'products') unknown(name);
      return;
    }
    if (variation !== undefined) {
      if (depth !== variation.depth + 1) return;
      const known = element.variation;
      if (known === undefined) return unknown(name);
      spelling(name, known[1], `variation ${known[0]}`);
      field = open(`variations[${variations.length}].${known[0]}`, depth, known[0], 'value');
      return;
    }
    if (variationsDepth !== -1) {
      if (depth === variationsDepth + 1) {
        if (lower === 'variation') variation = { values: {}, depth, line: at() };
        else unknown(name);
      }
      return;
    }
    if (depth !== product.depth + 1) return;
    if (lower === 'variations') {
      variationsDepth = depth;
      return;
    }
    const known = element.product;
    if (known === undefined) return unknown(name);
    spelling(name, known[1], known[0]);
    field =
      known[0] === 'additional_images' ? open(`additional_images[${images.length}]`, depth, known[0], 'image') : open(known[0], depth, known[0], 'value');
  });

  const addText = (text: string) => {
    sinceEvent = 0;
    if (field !== undefined && field.text.length < MAX_VALUE) field.text += text;
  };
  // Text is kept only inside a value (the white space between elements is dropped as it comes).
  // The handler stays set: setting and unsetting it per value cost more than the white space.
  parser.on('text', addText);
  parser.on('cdata', addText);

  parser.on('closetag', () => {
    sinceEvent = 0;
    if (field !== undefined && depth === field.depth) {
      closeField(field);
      field = undefined;
    } else if (variation !== undefined && depth === variation.depth) {
      variations.push(variation.values);
      variation = undefined;
    } else if (variationsDepth === depth) {
      variationsDepth = -1;
    } else if (product !== undefined && depth === product.depth) {
      const values = product.values;
      if (images.length > 0) values.additional_images = images;
      if (variations.length > 0) values.variations = variations;
      finishProduct(context, values, 'read', product.line, lines);
      product = undefined;
      lines.clear();
      // New arrays only when the product took the old ones.
      if (images.length > 0) images = [];
      if (variations.length > 0) variations = [];
    }
    depth--;
  });

  const closeField = (f: Field) => {
    const value = f.text.trim();
    lines.set(f.attribute, f.line);
    if (f.nested) {
      builder.error({
        line: f.line,
        ...(typeof product?.values.id === 'string' ? { productId: product.values.id } : {}),
        attribute: f.attribute,
        rule: 'no_html',
        message: `${f.attribute} holds markup (HTML is not allowed in any attribute)`,
      });
    }
    if (f.kind === 'created_at') {
      createdAt = value;
      if (!CREATED_AT.test(value)) {
        builder.error({ line: f.line, attribute: 'created_at', rule: 'created_at', message: `created_at ${JSON.stringify(value)}: YYYY-MM-DD HH:MM or YYYY-MM-DDTHH:MM:SS` });
      }
      return;
    }
    if (f.kind === 'image') {
      images.push(value);
      return;
    }
    const target = variation ?? product;
    if (target === undefined) return;
    // A repeated attribute: the first one counts.
    if (target.values[f.key] === undefined) target.values[f.key] = value;
  };

  parser.on('doctype', (doctype: string) => {
    if (/<!ENTITY/i.test(doctype)) {
      fail('doctype', 'the feed declares entities in a DOCTYPE, which can make a small file expand without bound; refused (a feed needs no DOCTYPE)');
    }
    warnOnce(context, 'doctype', { line: at(), rule: 'doctype', message: 'the feed has a DOCTYPE, which it needs not' });
  });
  parser.on('error', (error: Error) => fail('xml', `not well-formed XML: ${error.message.replace(/^[^:]*:\d+:\d+: /, '')}`));

  return {
    write(text) {
      if (stopped) return false;
      sinceEvent += text.length;
      try {
        parser.write(text);
      } catch (error) {
        if (!(error instanceof Stop)) throw error;
        return false;
      }
      if (sinceEvent > MAX_RUN) {
        builder.fatal({ line: at(), rule: 'too_large', message: `markup or text runs on for over ${MAX_RUN} characters without an end` });
        stopped = true;
      }
      return !stopped;
    },
    close() {
      if (!stopped) {
        try {
          parser.close();
        } catch (error) {
          if (!(error instanceof Stop)) throw error;
        }
      }
      if (stopped) return;
      if (!rootSeen) builder.error({ line: at(), rule: 'xml', message: 'the feed holds no XML element' });
      else if (createdAt === undefined) builder.error({ line: 1, attribute: 'created_at', rule: 'required', message: 'created_at is required: when the feed was generated' });
      if (builder.report.products === 0 && rootSeen) builder.error({ line: at(), rule: 'no_products', message: 'no <product> element found' });
    },
    line: at,
  };
}
