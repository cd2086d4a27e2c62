import type { z } from 'zod';

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(service: string, problems: string[]) {
    super(`${service}: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Validates the environment with one schema, reporting every bad variable at once,
 * and returns the frozen result. Callers pass `process.env` from their entry point.
 */
export function loadConfig<S extends z.ZodType>(
  service: string,
  schema: S,
  env: Readonly<Record<string, string | undefined>>,
): Readonly<z.output<S>> {
  // `VAR=` in an env file means "not set", not "set to nothing".
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(given);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path.map(String).join('.') || '(environment)';
      return `${name}: ${issue.message}`;
    });
    throw new ConfigError(service, problems);
  }
  return deepFreeze(result.data);
}
