import { readFileSync } from 'node:fs';

/** A request/answer file of `fixtures/recorded-2026h2/`, its `:name` parameter keys turned back into wire names. */
export interface LaterRecording {
  request: { method: string; url: string; headers: Record<string, string>; params: Record<string, unknown> | null };
  response: { status: number; headers: Record<string, string>; body_is_json: boolean; body: unknown };
}

const folder = new URL('../fixtures/recorded-2026h2/', import.meta.url);

export function laterRecording(name: string): LaterRecording {
  const text = readFileSync(new URL(`${name}.json`, folder), 'utf8').replace(/":(\w+)"/g, '"$1"');
  return JSON.parse(text) as LaterRecording;
}

/** A payload file (a webhook body or fragment) of `fixtures/recorded-2026h2/`. */
export function laterPayload(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`${name}.json`, folder), 'utf8')) as Record<string, unknown>;
}

/** The recording's path and query, to mount an msw handler on the test base URL. */
export function recordedPath(recording: LaterRecording): string {
  const url = new URL(recording.request.url);
  return url.pathname;
}
