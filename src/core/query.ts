/**
 * The shared query rules of the Catalog API documentation, in one place:
 * - `embed`, `embed_ids`, `include`, `include_meta`: comma lists;
 * - `fields`, `fields_except`: `fields[root]=a,b`, `fields[<association>]=...`;
 * - other arrays: `filter_ids[]=1&filter_ids[]=2`;
 * - undefined, null and empty lists are left out.
 */
export type QueryScalar = string | number | boolean;
export type QueryValue =
  | QueryScalar
  | null
  | undefined
  | readonly QueryScalar[]
  | { readonly [name: string]: readonly string[] | undefined };
export type QueryParams = { readonly [name: string]: QueryValue };

const COMMA_LISTS = new Set(['embed', 'embed_ids', 'include', 'include_meta']);

export function encodeQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      // An empty list asks for nothing: the parameter is left out, whatever its kind.
      if (value.length === 0) continue;
      if (COMMA_LISTS.has(key)) search.append(key, value.join(','));
      else for (const item of value) search.append(`${key}[]`, String(item));
    } else if (typeof value === 'object') {
      for (const [resource, names] of Object.entries(value as Record<string, readonly string[] | undefined>)) {
        if (names) search.append(`${key}[${resource}]`, names.join(','));
      }
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
