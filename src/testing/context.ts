/** What every part of the mock marketplace shares (its own module, so the parts need not import the mock that assembles them). */
export interface CoreContext {
  vendor: string;
  baseUrl: string;
  seed: number;
  now: () => number;
}
