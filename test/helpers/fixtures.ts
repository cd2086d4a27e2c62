import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';

/** The saved marketplace pages live beside the project, never copied into it. */
export const FIXTURES_DIR = process.env.MARKET_FIXTURES_DIR ?? path.resolve(ROOT_DIR, '..', 'shared', 'fixtures', 'market');
export const EXPECTED_DIR = path.join(ROOT_DIR, 'test', 'market', 'expected');

export function readFixture(file: string): string {
  return readFileSync(path.join(FIXTURES_DIR, file), 'utf8');
}

export function expectedFiles(): string[] {
  return readdirSync(EXPECTED_DIR).filter((file) => file.endsWith('.json')).sort();
}
