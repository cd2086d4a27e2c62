import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, type ServiceName } from '@comps/scripts/stack/launch-stack';
import { SERVICE_RUNTIME } from '@comps/scripts/stack/service-runtime';

// A service runs with the same settings however it is started: npm start and the tests (launchStack, which reads
// SERVICE_RUNTIME), compose.yaml, and the image's default command (the api's).

const SERVICES = Object.keys(SERVICE_RUNTIME) as ServiceName[];
const commandOf = (service: ServiceName) => ['node', ...SERVICE_RUNTIME[service].nodeFlags, `services/${service}/dist/main.js`];

/** A service's block of compose.yaml: from its name at the top level of `services:` to the next name there. */
function composeBlock(compose: string, service: ServiceName): string {
  return new RegExp(`^  ${service}:\\n((?:    .*\\n|\\s*\\n)+)`, 'm').exec(compose)?.[1] ?? '';
}

t.test('compose.yaml starts each service with its Node flags and its variables', async (t) => {
  const compose = readFileSync(path.join(ROOT_DIR, 'compose.yaml'), 'utf8');
  for (const service of SERVICES) {
    const block = composeBlock(compose, service);
    t.not(block, '', `${service} is in compose.yaml`);
    const command = /^    command: (\[.*\])$/m.exec(block)?.[1];
    t.same(command && JSON.parse(command), commandOf(service), `${service}'s command`);
    for (const [name, value] of Object.entries(SERVICE_RUNTIME[service].env)) {
      t.match(block, new RegExp(`^      ${name}: "${value}"$`, 'm'), `${service} gets ${name}`);
    }
  }
});

t.test("the image's default command is the api's", async (t) => {
  const dockerfile = readFileSync(path.join(ROOT_DIR, 'services', 'Dockerfile'), 'utf8');
  const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  t.same(command && JSON.parse(command), commandOf('api'));
});
