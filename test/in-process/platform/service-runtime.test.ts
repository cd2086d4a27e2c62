import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, serviceEntry, type ServiceName } from '@comps/scripts/stack/launch-stack';
import { SERVICE_NODE_FLAGS, SERVICE_RUNTIME_ENV } from '@comps/scripts/stack/service-runtime';

// A service runs with the same runtime variables and Node flags however it is started: npm start and the tests (launchStack, which
// reads SERVICE_RUNTIME_ENV and SERVICE_NODE_FLAGS) and compose.yaml.

t.test('compose.yaml gives each service its runtime variables, beside the ones every service shares', async (t) => {
  const compose = readFileSync(path.join(ROOT_DIR, 'compose.yaml'), 'utf8');
  const services = Object.entries(SERVICE_RUNTIME_ENV) as Array<[ServiceName, Record<string, string>]>;
  t.same(services.map(([service]) => service), ['jobs'], 'the jobs service has some');
  for (const [service, variables] of services) {
    // The service's block (from its name at the top level of `services:` to the next name there), then its environment.
    const block = new RegExp(`^  ${service}:\\n((?:    .*\\n|\\s*\\n)+)`, 'm').exec(compose)?.[1] ?? '';
    const environment = /^    environment:\n((?:      .*\n)+)/m.exec(block)?.[1] ?? '';
    t.match(environment, /^      <<: \*service-env$/m, `${service} keeps the shared variables`);
    for (const [name, value] of Object.entries(variables)) t.match(environment, new RegExp(`^      ${name}: "${value}"$`, 'm'), `${service} gets ${name}`);
  }
});

t.test('compose.yaml starts each service from the file npm start runs, with its Node flags (the others with none); so does the image its api', async (t) => {
  const compose = readFileSync(path.join(ROOT_DIR, 'compose.yaml'), 'utf8');
  t.same(Object.keys(SERVICE_NODE_FLAGS), ['api'], 'the api has some');
  for (const service of ['market-sim', 'accounts', 'api', 'jobs'] as const) {
    const block = new RegExp(`^  ${service}:\\n((?:    .*\\n|\\s*\\n)+)`, 'm').exec(compose)?.[1] ?? '';
    const command = /^    command: (\[.*\])$/m.exec(block)?.[1];
    t.same(command && JSON.parse(command), ['node', ...(SERVICE_NODE_FLAGS[service] ?? []), path.relative(ROOT_DIR, serviceEntry(service))], `${service}'s command`);
  }
  const image = /^CMD (\[.*\])$/m.exec(readFileSync(path.join(ROOT_DIR, 'services', 'Dockerfile'), 'utf8'))?.[1];
  t.same(image && JSON.parse(image), ['node', ...(SERVICE_NODE_FLAGS.api ?? []), path.relative(ROOT_DIR, serviceEntry('api'))], "the image's own command: the api, with its flags");
});
