import { parseArgs } from 'node:util';
import { planIdSchema } from '@comps/shared/contract/usage';
import { createDb, type Db } from '@comps/shared/db/create-db';
import { migrateToLatest } from '@comps/shared/db/migrate';
import { createApiKey, revokeKey } from '../api-keys/api-key-service.js';
import { loadAdminConfig } from '../config.js';
import { createWorkspace, setWorkspaceLimits } from '../workspaces/workspace-service.js';

const USAGE = `usage: npm run --silent admin -- <command>

  workspace create --name NAME [--plan free|starter|pro]
      creates a workspace and its first API key; prints {"workspaceId", "apiKey"}
  workspace limits --workspace ID [--plan free|starter|pro] [--quota N] [--rate N] [--concurrency N]
      sets per-workspace overrides (N, or "plan" to go back to the plan's value); prints the limits in force
  key create --workspace ID [--name NAME]
      creates another API key; prints {"apiKeyId", "apiKey", "prefix"}
  key revoke --key KEY
      revokes a key, given as the key itself or its id (key_…); prints {"revoked": true, "apiKeyId"}

Environment: DATABASE_URL (default mysql://root@127.0.0.1:3306/comps).`;

class UsageError extends Error {}

function option(values: Record<string, string | boolean | undefined>, name: string, required: true): string;
function option(values: Record<string, string | boolean | undefined>, name: string, required?: false): string | undefined;
function option(values: Record<string, string | boolean | undefined>, name: string, required = false) {
  const value = values[name];
  if (value === undefined) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

function limitOverride(values: Record<string, string | boolean | undefined>, name: string, min: number) {
  const value = option(values, name);
  if (value === undefined) return undefined;
  if (value === 'plan') return null;
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be an integer of at least ${min}, or "plan"`);
  }
  return Number(value);
}

function planOption(values: Record<string, string | boolean | undefined>) {
  const value = option(values, 'plan');
  if (value === undefined) return undefined;
  const parsed = planIdSchema.safeParse(value);
  if (!parsed.success) throw new UsageError('--plan must be free, starter or pro');
  return parsed.data;
}

const COMMANDS: Record<string, { options: string[]; run: (db: Db, values: Record<string, string | boolean | undefined>) => Promise<unknown> }> = {
  'workspace create': {
    options: ['name', 'plan'],
    async run(db, values) {
      const name = option(values, 'name', true);
      const created = await createWorkspace(db, { name, planId: planOption(values) ?? 'free' });
      return { workspaceId: created.workspaceId, apiKey: created.apiKey.key };
    },
  },
  'workspace limits': {
    options: ['workspace', 'plan', 'quota', 'rate', 'concurrency'],
    async run(db, values) {
      const workspaceId = option(values, 'workspace', true);
      const patch = {
        planId: planOption(values),
        monthlyQuota: limitOverride(values, 'quota', 0),
        rateLimit: limitOverride(values, 'rate', 1),
        concurrency: limitOverride(values, 'concurrency', 1),
      };
      if (Object.values(patch).every((value) => value === undefined)) {
        throw new UsageError('give at least one of --plan, --quota, --rate, --concurrency');
      }
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      return { workspaceId, plan: await setWorkspaceLimits(db, workspaceId, defined) };
    },
  },
  'key create': {
    options: ['workspace', 'name'],
    async run(db, values) {
      const key = await createApiKey(db, option(values, 'workspace', true), option(values, 'name') ?? null);
      return { apiKeyId: key.apiKeyId, apiKey: key.key, prefix: key.prefix };
    },
  },
  'key revoke': {
    options: ['key'],
    async run(db, values) {
      const revoked = await revokeKey(db, option(values, 'key', true));
      return { revoked: true, apiKeyId: revoked.apiKeyId };
    },
  },
};

async function main(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  const command = COMMANDS[`${group} ${action}`];
  let values: Record<string, string | boolean | undefined>;
  try {
    if (!command) throw new UsageError(group ? `unknown command: ${argv.slice(0, 2).join(' ')}` : 'no command given');
    const options = Object.fromEntries(command.options.map((name) => [name, { type: 'string' as const }]));
    values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }

  let db: Db | undefined;
  try {
    const config = loadAdminConfig(process.env);
    await migrateToLatest(config.databaseUrl);
    db = createDb({ url: config.databaseUrl, connectionLimit: 2 });
    const output = await command.run(db, values);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await db?.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
