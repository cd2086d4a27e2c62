/** A nullable time column as the contract shows it (ISO 8601, UTC), or null. */
export function isoOrNull(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
