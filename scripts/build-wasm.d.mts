/** The generated module's text (value-scan-wasm.ts) for the .wat at `source` (src/feed/value-scan.wat by default). */
export function generatedModule(source?: string): Promise<string>;
