import { ulid } from 'ulid';

/** `usr_` + ULID, made in the app (no RETURNING on MySQL). */
export function newUserId(): string {
  return `usr_${ulid()}`;
}
