/** The tracker's option checks: a bad option is a `TypeError` naming it, before anything runs. */

export function positiveMs(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`createOrderTracker: ${option} must be a positive number of milliseconds`);
  }
  return value;
}

/** One lead time or several, largest first. */
export function checkLeads(value: number | readonly number[] | undefined, fallback: number[], option: string): number[] {
  if (value === undefined) return fallback;
  const leads = typeof value === 'number' ? [value] : Array.isArray(value) ? [...value] : undefined;
  if (leads === undefined || leads.length === 0) throw new TypeError(`createOrderTracker: ${option} must be a lead time in ms, or a list of them`);
  for (const lead of leads) positiveMs(lead, 0, option);
  return [...new Set(leads)].sort((a, b) => b - a);
}
