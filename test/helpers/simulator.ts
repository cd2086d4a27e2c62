import { freePort } from '@comps/scripts/stack/free-port';
import { ManagedProcess } from '@comps/scripts/stack/managed-process';
import { ROOT_DIR, serviceEntry } from '@comps/scripts/stack/launch-stack';
import { withoutTapHooks } from './without-tap-hooks.js';

/** The marketplace simulator alone, on a free port, with the given knobs; stopped when the test ends. */
export async function startSimulator(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}): Promise<string> {
  const port = await freePort();
  const [command, args] = withoutTapHooks(process.execPath, [serviceEntry('market-sim')]);
  const sim = new ManagedProcess({
    name: 'market-sim',
    command,
    args,
    env: { PATH: process.env.PATH ?? '', MARKET_SIM_PORT: String(port), LOG_LEVEL: 'warn', ...env },
    cwd: ROOT_DIR,
    output: 'inherit',
    readyUrl: `http://127.0.0.1:${port}/healthz`,
  });
  await sim.start();
  t.teardown(() => sim.stop());
  return `http://127.0.0.1:${port}`;
}
