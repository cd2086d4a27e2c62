import t from 'tap';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MigrationSet } from '@comps/shared/db/migrate';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';
import { ACCOUNTS_MIGRATIONS } from '../../../services/accounts/src/db/accounts-migrations.js';
import { JOBS_MIGRATIONS } from '../../../services/jobs/src/db/jobs-migrations.js';

// The services list their migrations (bundled with the one Kysely they run) instead of reading their folder at start:
// each list must name every file of its folder, by the name the migration table records (the file's, without its
// extension), in the order they run, and nothing else.
const sets: Array<[string, MigrationSet]> = [
  ['accounts', ACCOUNTS_MIGRATIONS],
  ['jobs', JOBS_MIGRATIONS],
];

for (const [service, set] of sets) {
  t.test(`${service}: the list is the migrations folder`, async (t) => {
    const folder = path.join(ROOT_DIR, 'services', service, 'src', 'db', 'migrations');
    const files = readdirSync(folder)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.slice(0, -'.ts'.length))
      .sort();
    t.ok(files.length > 0);
    t.strictSame(Object.keys(set.migrations), files, 'every file, by its name, in the order they run');
    // Each name's migration is that file's module (a name paired with another's would run the wrong one under it).
    for (const [name, migration] of Object.entries(set.migrations)) {
      t.equal(migration, await import(pathToFileURL(path.join(folder, `${name}.ts`)).href), `${name} is its file's`);
      t.equal(typeof migration.up, 'function', `${name} has its up`);
    }
  });
}
