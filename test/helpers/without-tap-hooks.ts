/**
 * tap puts its process-info hook into NODE_OPTIONS of everything a test spawns (whatever env the spawn names). A
 * process with it sends every module it loads through a loader thread: accounts' modules load on 2.4 s of CPU with
 * it against 0.9 s without, and a stack test file took 26 s of CPU with it against 18 s without. npm's own children
 * (tsc, an ES module loaded through that hook) fail under it. So tests run what they spawn without it, as it runs
 * outside tests: through `env -u NODE_OPTIONS`, which drops the variable and then becomes the command (same pid, so
 * signals and exits are the command's).
 */
export const WITHOUT_TAP_HOOKS = ['env', '-u', 'NODE_OPTIONS'] as const;

/** `command args…` as spawn arguments that run it without tap's hook. */
export function withoutTapHooks(command: string, args: readonly string[]): [string, string[]] {
  const [env, ...options] = WITHOUT_TAP_HOOKS;
  return [env, [...options, command, ...args]];
}
