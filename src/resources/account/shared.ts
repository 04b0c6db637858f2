/**
 * A favorite list id as a path segment. Auto lists have negative ids, which the shared path
 * check (non-negative integers) would refuse, so the id goes in as its decimal text.
 */
export function listIdSegment(id: number): string | number {
  return Number.isSafeInteger(id) && id < 0 ? String(id) : id;
}
