/** Types of scripts/api-map.mjs, for its test. */
export interface ApiMap {
  /** api.md's text. */
  text: string;
  /** Each public method's line, by its dotted name (`client.orders.get`). */
  lines: Map<string, string>;
  /** Methods whose requests were not found or not resolved. */
  problems: string[];
}
export function generateApiMap(): ApiMap;
export function checkApiMap(committed: string, generated?: ApiMap): string[];
