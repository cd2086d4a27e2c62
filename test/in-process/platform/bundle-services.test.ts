import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { ROOT_DIR, serviceEntry, type ServiceName } from '@comps/scripts/stack/launch-stack';
import { withoutTapHooks } from '../../helpers/without-tap-hooks.js';

// npm start builds every time, and the tests run npm start many times beside running stacks: a build that changed
// nothing leaves the services' bundles as they are (no CPU spent, no file replaced under a service starting from it).

t.test('a build with nothing changed leaves every bundle untouched', async (t) => {
  const services: ServiceName[] = ['accounts', 'api', 'jobs', 'market-sim'];
  const before = services.map((service) => statSync(serviceEntry(service)));
  await promisify(execFile)(...withoutTapHooks(process.execPath, [path.join(ROOT_DIR, 'scripts', 'bundle-services.mjs')]), { cwd: ROOT_DIR });
  services.forEach((service, index) => {
    const after = statSync(serviceEntry(service));
    t.strictSame([after.ino, after.mtimeMs], [before[index]!.ino, before[index]!.mtimeMs], `${service}'s bundle is the same file, unwritten`);
  });
});
