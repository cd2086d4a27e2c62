import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import type { z } from 'zod';
import { INTERNAL_TOKEN_FILE, readInternalTokenFile } from '@comps/shared/config/internal-token-file';
import { planIdSchema } from '@comps/shared/contract/usage';
import { AppError } from '@comps/shared/errors/app-error';
import { linkHoursSchema, type passwordLinkSchema } from '@comps/shared/internal/accounts/accounts-contract';
import { createAccountsClient, type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { loadAdminConfig } from '../config.js';

const USAGE = `usage: npm run --silent admin -- <command>

  workspace create --name NAME [--plan free|starter|pro]
      creates a workspace and its first API key; prints {"workspaceId", "apiKey"}
  workspace limits --workspace ID [--plan free|starter|pro] [--quota N] [--rate N] [--concurrency N]
                   [--tracked-searches N] [--webhook-endpoints N]
      sets per-workspace overrides (N, or "plan" to go back to the plan's value); prints the limits in force
  key create --workspace ID [--name NAME]
      creates another API key; prints {"apiKeyId", "apiKey", "prefix"}
  key revoke --key KEY
      revokes a key, given as the key itself or its id (key_…); prints {"revoked": true, "apiKeyId"}
  user create --email EMAIL --workspace ID [--link-hours N]
      adds a dashboard user to a workspace; prints {"userId", "email", "workspaceId", "setPasswordUrl",
      "expiresAt"}: give the link to the user, who chooses a password with it (once, within N hours, default 72)
  user password-link --email EMAIL [--link-hours N]
      a new set-password link for an existing user (a forgotten password, an expired link); same output

It asks the running accounts service, as the other services do: ACCOUNTS_URL (default
http://127.0.0.1:4103, its internal port) and INTERNAL_TOKEN (default: the one npm start keeps in
.run/internal-token). Set-password links start with PUBLIC_URL (default http://localhost:8080).`;

class UsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;

function option(values: Values, name: string, required: true): string;
function option(values: Values, name: string, required?: false): string | undefined;
function option(values: Values, name: string, required = false) {
  const value = values[name];
  if (value === undefined) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

function limitOverride(values: Values, name: string, min: number) {
  const value = option(values, name);
  if (value === undefined) return undefined;
  if (value === 'plan') return null;
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be an integer of at least ${min}, or "plan"`);
  }
  return Number(value);
}

function planOption(values: Values) {
  const value = option(values, 'plan');
  if (value === undefined) return undefined;
  const parsed = planIdSchema.safeParse(value);
  if (!parsed.success) throw new UsageError('--plan must be free, starter or pro');
  return parsed.data;
}

/** The procedure's own rule (1 to 720, 72 by default), checked here so that a bad value is a usage error. */
function linkHours(values: Values): number {
  const value = option(values, 'link-hours');
  const parsed = linkHoursSchema.safeParse(value === undefined ? undefined : /^\d+$/.test(value) ? Number(value) : Number.NaN);
  if (!parsed.success) throw new UsageError('--link-hours must be an integer from 1 to 720');
  return parsed.data;
}

type PasswordLinkAnswer = z.infer<typeof passwordLinkSchema>;

/** The link the user opens; the token is in it only (the database keeps its hash). */
function withLink(link: PasswordLinkAnswer, publicUrl: string) {
  const setPasswordUrl = `${publicUrl}/auth/set-password?token=${encodeURIComponent(link.token)}`;
  return { userId: link.userId, email: link.email, workspaceId: link.workspaceId, setPasswordUrl, expiresAt: link.expiresAt };
}

interface Command {
  options: string[];
  /** Checks the arguments (a UsageError before anything is asked), then returns the call to make. */
  prepare(values: Values): (accounts: AccountsClient, publicUrl: string) => Promise<unknown>;
}

const COMMANDS: Record<string, Command> = {
  'workspace create': {
    options: ['name', 'plan'],
    prepare(values) {
      const name = option(values, 'name', true);
      const planId = planOption(values) ?? 'free';
      return async (accounts) => {
        const created = await accounts.workspaces.create.mutate({ name, planId });
        return { workspaceId: created.workspaceId, apiKey: created.apiKey.key };
      };
    },
  },
  'workspace limits': {
    options: ['workspace', 'plan', 'quota', 'rate', 'concurrency', 'tracked-searches', 'webhook-endpoints'],
    prepare(values) {
      const workspaceId = option(values, 'workspace', true);
      const patch = {
        planId: planOption(values),
        monthlyQuota: limitOverride(values, 'quota', 0),
        rateLimit: limitOverride(values, 'rate', 1),
        concurrency: limitOverride(values, 'concurrency', 1),
        trackedSearches: limitOverride(values, 'tracked-searches', 0),
        webhookEndpoints: limitOverride(values, 'webhook-endpoints', 0),
      };
      if (Object.values(patch).every((value) => value === undefined)) {
        throw new UsageError('give at least one of --plan, --quota, --rate, --concurrency, --tracked-searches, --webhook-endpoints');
      }
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      return async (accounts) => ({ workspaceId, plan: await accounts.workspaces.setLimits.mutate({ workspaceId, ...defined }) });
    },
  },
  'key create': {
    options: ['workspace', 'name'],
    prepare(values) {
      const workspaceId = option(values, 'workspace', true);
      const name = option(values, 'name') ?? null;
      return async (accounts) => {
        const key = await accounts.apiKeys.create.mutate({ workspaceId, name });
        return { apiKeyId: key.apiKeyId, apiKey: key.key, prefix: key.prefix };
      };
    },
  },
  'key revoke': {
    options: ['key'],
    prepare(values) {
      const keyOrId = option(values, 'key', true);
      return async (accounts) => {
        const revoked = await accounts.apiKeys.revoke.mutate({ keyOrId });
        return { revoked: true, apiKeyId: revoked.apiKeyId };
      };
    },
  },
  'user create': {
    options: ['email', 'workspace', 'link-hours'],
    prepare(values) {
      const email = option(values, 'email', true);
      const workspaceId = option(values, 'workspace', true);
      const hours = linkHours(values);
      return async (accounts, publicUrl) => withLink(await accounts.users.create.mutate({ email, workspaceId, linkHours: hours }), publicUrl);
    },
  },
  'user password-link': {
    options: ['email', 'link-hours'],
    prepare(values) {
      const email = option(values, 'email', true);
      const hours = linkHours(values);
      return async (accounts, publicUrl) => withLink(await accounts.users.issuePasswordLink.mutate({ email, linkHours: hours }), publicUrl);
    },
  },
};

async function main(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  const command = COMMANDS[`${group} ${action}`];
  let call: (accounts: AccountsClient, publicUrl: string) => Promise<unknown>;
  try {
    if (!command) throw new UsageError(group ? `unknown command: ${argv.slice(0, 2).join(' ')}` : 'no command given');
    const options = Object.fromEntries(command.options.map((name) => [name, { type: 'string' as const }]));
    call = command.prepare(parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }

  const agent = new Agent();
  let accountsUrl: string | undefined;
  try {
    const config = loadAdminConfig(process.env);
    accountsUrl = config.accountsUrl;
    const internalToken = config.internalToken ?? readInternalTokenFile();
    if (!internalToken) {
      process.stderr.write(`admin: set INTERNAL_TOKEN (and ACCOUNTS_URL), or start the stack with npm start, which keeps its token in ${INTERNAL_TOKEN_FILE}\n`);
      return 1;
    }
    const accounts = createAccountsClient({ url: config.accountsUrl, internalToken, timeoutMs: config.timeoutMs, dispatcher: agent });
    const output = await call(accounts, config.publicUrl);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    const unreachable = error instanceof AppError && error.code === 'service_unavailable';
    const details = error instanceof AppError && error.details ? `: ${error.details.map((detail) => `${detail.path}: ${detail.message}`).join('; ')}` : '';
    const message = `${error instanceof Error ? error.message : String(error)}${details}`;
    const hint = unreachable && accountsUrl ? ` (asked ${accountsUrl}; is the stack running? npm start)` : '';
    process.stderr.write(`admin: ${message}${hint}\n`);
    return 1;
  } finally {
    await agent.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
