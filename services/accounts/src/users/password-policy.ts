export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase or manager; bounds the work a request can ask of the hash. */
export const MAX_PASSWORD_LENGTH = 256;

/** Why a new password is refused, or null when it is acceptable (length is what protects; no composition rules). */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `Choose a password of at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'Choose a password that is not your e-mail address.';
  if (new Set(password).size < 4) return 'Choose a password with more than three different characters.';
  return null;
}
