/** Types of scripts/check-size.mjs, for the tests and benches that read its budgets. */
export interface Budget {
  entry: string;
  file: string;
  budgetKb: number;
  /** The budget of the chunks the entry loads with import() (measured apart). */
  lazyBudgetKb?: number;
  forbidden?: string[];
}
export const BUDGETS: Budget[];
export function measureEntry(file: string): Promise<{ minBytes: number; gzipBytes: number; packages: Set<string>; lazy: string[] }>;
/** An esbuild plugin: the package's own chunks loaded with import() stay out of the bundle measured; `found` maps each import as written to its file. */
export function lazyChunks(found?: Map<string, string>): import('esbuild').Plugin;
export function checkSizes(): Promise<
  { entry: string; minKb: number; gzipKb: number; budgetKb: number; packages: string[]; intruders: string[]; ok: boolean }[]
>;
