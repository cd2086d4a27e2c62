/** E-mail addresses are kept trimmed and lower-cased: one account per address however it is typed. */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

/** A plausible address (RFC 5321's length limits, one @, a dot in the domain); the real check is that mail arrives. */
export function isPlausibleEmail(email: string): boolean {
  if (email.length > 254) return false;
  const match = /^([^\s@]{1,64})@([^\s@]+\.[^\s@.]{2,})$/.exec(email);
  return match !== null && !/[<>()[\]\\,;:"]/.test(email);
}
