import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored as scrypt hashes (Node's own, no native dependency) in the PHC string format:
 * `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, salt and hash in unpadded base64. The parameters travel with
 * each hash, so that they can be raised later: a hash made with weaker ones is replaced at the next
 * sign-in (needsRehash).
 *
 * N = 2^17, r = 8, p = 1 is OWASP's recommended minimum for scrypt: 128 MiB and about a third of a
 * second per hash here, which is what a guesser pays per guess too.
 */
export const SCRYPT_PARAMS = { logN: 17, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

interface ParsedHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  const N = 2 ** params.logN;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 128 * N * params.r * params.p + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const b64 = (buffer: Buffer) => buffer.toString('base64').replace(/=+$/, '');

function parse(stored: string): ParsedHash | undefined {
  const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
  if (!match) return undefined;
  const [, logN, r, p, salt, hash] = match;
  const params = { logN: Number(logN), r: Number(r), p: Number(p) };
  // A stored hash never makes us spend more than twice today's cost.
  if (params.logN < 10 || params.logN > SCRYPT_PARAMS.logN + 1 || params.r > 16 || params.p > 4) return undefined;
  return { ...params, salt: Buffer.from(salt!, 'base64'), hash: Buffer.from(hash!, 'base64') };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, SCRYPT_PARAMS, HASH_BYTES);
  const { logN, r, p } = SCRYPT_PARAMS;
  return `$scrypt$ln=${logN},r=${r},p=${p}$${b64(salt)}$${b64(hash)}`;
}

/**
 * Whether `password` matches `stored`, compared in constant time. A missing or unreadable hash (a
 * user who has not set a password yet, an unknown e-mail) still costs one full hash, so that the
 * time taken does not tell which accounts exist.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : undefined;
  if (!parsed) {
    await derive(password, randomBytes(SALT_BYTES), SCRYPT_PARAMS, HASH_BYTES);
    return false;
  }
  const candidate = await derive(password, parsed.salt, parsed, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** Whether a hash was made with other parameters than today's (and should be replaced at sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.logN !== SCRYPT_PARAMS.logN || parsed.r !== SCRYPT_PARAMS.r || parsed.p !== SCRYPT_PARAMS.p;
}
