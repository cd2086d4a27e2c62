import t from 'tap';
import { PassThrough } from 'node:stream';
import { ManagedProcess } from '@comps/scripts/stack/managed-process';

// A process that cannot be started names the command that was spawned and the system's reason, for the operator to fix.
t.test('a command that cannot be started: the error names it and why', async (t) => {
  const options = {
    name: 'ghost',
    command: '/nonexistent/comps-no-such-binary',
    args: [],
    env: { PATH: process.env.PATH ?? '' },
    cwd: process.cwd(),
    output: new PassThrough(),
    readyUrl: 'http://127.0.0.1:9/healthz',
  };
  await t.rejects(new ManagedProcess(options).start(undefined, 5000), {
    message: 'ghost could not be started (/nonexistent/comps-no-such-binary: spawn /nonexistent/comps-no-such-binary ENOENT) before it was ready',
  });
  // Wrapped so that the kernel stops it with its launcher (setpriv, where the machine has it): setpriv starts, and exits 127.
  const wrapped = new ManagedProcess({ ...options, terminateWithParent: true });
  await t.rejects(wrapped.start(undefined, 5000), {
    message:
      /^ghost could not be started \(\/nonexistent\/comps-no-such-binary: (not found; setpriv exited with code 127|spawn \/nonexistent\/comps-no-such-binary ENOENT)\) before it was ready$/,
  });
});
