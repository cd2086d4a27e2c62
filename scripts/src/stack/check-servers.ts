import { connect } from 'node:net';

export interface ServerCheck {
  /** What the server is, for the message: "MariaDB", "Redis". */
  kind: 'MariaDB' | 'Redis';
  url: string;
  /** The variable that sets the URL, named in the message. */
  variable: string;
}

const DEFAULT_PORTS: Record<ServerCheck['kind'], number> = { MariaDB: 3306, Redis: 6379 };

/** How to start each on a Debian machine; `npm start` only needs them reachable and never starts them itself. */
const HOW_TO_START: Record<ServerCheck['kind'], string> = {
  MariaDB: 'start it (`systemctl start mariadb`, or `start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd`)',
  Redis:
    'start it (`systemctl start redis-server`, or `redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --appendonly yes --appendfsync everysec`)',
};

/** The URL without its password, fit for a message. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@');
}

function reach(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

/**
 * Whether each server accepts connections; one line per server that does not, naming its URL, the variable that
 * sets it and how to start it. An empty list means all are reachable.
 */
export async function unreachableServers(checks: ServerCheck[], timeoutMs = 2000): Promise<string[]> {
  const problems = await Promise.all(
    checks.map(async ({ kind, url, variable }) => {
      const parsed = new URL(url);
      const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[kind];
      const problem = await reach(parsed.hostname || '127.0.0.1', port, timeoutMs);
      return problem === undefined
        ? undefined
        : `${kind} is not reachable at ${redactUrl(url)} (${problem}): ${HOW_TO_START[kind]}, or set ${variable} to where it runs.`;
    }),
  );
  return problems.filter((problem): problem is string => problem !== undefined);
}
