import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';

const RELATIVE = path.join('..', 'shared', 'fixtures', 'market');

/** A local clone (CI's "clean clone") keeps its origin's path; the pages stand beside that. */
function besideOrigin(): string | undefined {
  try {
    const origin = execFileSync('git', ['-C', ROOT_DIR, 'remote', 'get-url', 'origin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return path.isAbsolute(origin) ? path.resolve(origin, RELATIVE) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The saved marketplace pages live beside the project (`../shared/fixtures/market`), never copied
 * into it: from MARKET_FIXTURES_DIR, beside this checkout, or beside the repository it was cloned from.
 */
function locateFixtures(): string {
  const candidates = [process.env.MARKET_FIXTURES_DIR, path.resolve(ROOT_DIR, RELATIVE), besideOrigin()].filter((dir): dir is string => Boolean(dir));
  const found = candidates.find((dir) => existsSync(path.join(dir, 'INDEX.tsv')));
  if (!found) throw new Error(`saved marketplace pages not found; looked in ${candidates.join(', ')} (set MARKET_FIXTURES_DIR)`);
  return found;
}

export const FIXTURES_DIR = locateFixtures();
export const EXPECTED_DIR = path.join(ROOT_DIR, 'test', 'market', 'expected');

export function readFixture(file: string): string {
  return readFileSync(path.join(FIXTURES_DIR, file), 'utf8');
}

export function expectedFiles(): string[] {
  return readdirSync(EXPECTED_DIR).filter((file) => file.endsWith('.json')).sort();
}
