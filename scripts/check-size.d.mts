/** Types of scripts/check-size.mjs, for the tests and benches that read its budgets. */
export interface Budget {
  entry: string;
  file: string;
  budgetKb: number;
  forbidden?: string[];
}
export const BUDGETS: Budget[];
export function measureEntry(file: string): Promise<{ minBytes: number; gzipBytes: number; packages: Set<string> }>;
export function checkSizes(): Promise<
  { entry: string; minKb: number; gzipKb: number; budgetKb: number; packages: string[]; intruders: string[]; ok: boolean }[]
>;
