import t from 'tap';
import { z } from 'zod';
import { ConfigError, loadConfig } from '@comps/shared/config/load-config';
import { webhookEnvFields, webhookPolicyFrom } from '@comps/shared/webhooks/webhook-config';

const schema = z.object(webhookEnvFields);
const policyOf = (env: Record<string, string | undefined>) => webhookPolicyFrom(loadConfig('test', schema, env));
const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig('test', schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
};

t.test('defaults: https only, no allowed hosts', async (t) => {
  t.strictSame(policyOf({}), { allowHttp: false, allowedHosts: [] });
  t.strictSame(policyOf({ WEBHOOK_ALLOW_HTTP: '', WEBHOOK_ALLOWED_HOSTS: '' }), { allowHttp: false, allowedHosts: [] }, 'set to nothing is not set');
});

t.test('WEBHOOK_ALLOW_HTTP is true or false, nothing else', async (t) => {
  t.equal(policyOf({ WEBHOOK_ALLOW_HTTP: 'true' }).allowHttp, true);
  t.equal(policyOf({ WEBHOOK_ALLOW_HTTP: 'false' }).allowHttp, false);
  for (const value of ['1', 'yes', 'TRUE', 'on', ' true']) t.strictSame(problemsOf({ WEBHOOK_ALLOW_HTTP: value }), ['WEBHOOK_ALLOW_HTTP: must be true or false'], value);
});

t.test('WEBHOOK_ALLOWED_HOSTS: host names and IP addresses, comma-separated, in canonical form', async (t) => {
  t.strictSame(policyOf({ WEBHOOK_ALLOWED_HOSTS: ' Receiver.Local. , 127.0.0.1,,::1, [::FFFF:127.0.0.1] ,hooks_internal.corp' }).allowedHosts, [
    'receiver.local',
    '127.0.0.1',
    '::1',
    '::ffff:7f00:1',
    'hooks_internal.corp',
  ]);
  t.strictSame(policyOf({ WEBHOOK_ALLOWED_HOSTS: ' , ' }).allowedHosts, [], 'only separators: none');
});

t.test('WEBHOOK_ALLOWED_HOSTS refuses what is not a bare host, naming each', async (t) => {
  const problems = problemsOf({ WEBHOOK_ALLOWED_HOSTS: 'ok.example,receiver:4100,http://hooks.example,hooks.example/path,user@hooks.example,127.1,*.example,a b,[::1]:80' });
  t.equal(problems.length, 1);
  t.match(problems[0], /^WEBHOOK_ALLOWED_HOSTS: must be host names or IP addresses, comma-separated, without scheme, port, path or wildcard: /);
  for (const bad of ['receiver:4100', 'http://hooks.example', 'hooks.example/path', 'user@hooks.example', '127.1', '*.example', 'a b', '[::1]:80']) t.match(problems[0], bad, `names ${bad}`);
  t.notMatch(problems[0], 'ok.example', 'not the good one');
});

t.test('both together, each reported', async (t) => {
  t.strictSame(problemsOf({ WEBHOOK_ALLOW_HTTP: 'maybe', WEBHOOK_ALLOWED_HOSTS: 'x:1' }).map((problem) => problem.split(':')[0]), ['WEBHOOK_ALLOW_HTTP', 'WEBHOOK_ALLOWED_HOSTS']);
});
