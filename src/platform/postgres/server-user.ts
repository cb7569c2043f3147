import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The user Debian's postgresql package creates, which runs the server where docpipe runs as root. */
export const POSTGRES_SYSTEM_USER = 'postgres';

/** Who runs the server processes: this process's user, or (as root) the unprivileged one. */
export interface ServerUser {
  name: string;
  uid: number;
  gid: number;
  /** Whether it is another user than this process's (then files are handed to it). */
  switched: boolean;
}

/**
 * PostgreSQL refuses to run as root (`initdb: cannot be run as root`): a server that runs SQL
 * from the network must not hold every right on the machine. As root, docpipe runs it as the
 * `postgres` user of Debian's package; as any other user, as that user.
 */
export async function serverUser(name = POSTGRES_SYSTEM_USER): Promise<ServerUser> {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  if (uid !== 0) return { name: String(uid), uid, gid, switched: false };
  const entry = await promisify(execFile)('getent', ['passwd', name]).then(
    (r) => r.stdout.trim(),
    () => '',
  );
  // name:password:uid:gid:gecos:home:shell
  const [, , u, g] = entry.split(':');
  if (!entry || u === undefined || g === undefined)
    throw new Error(
      `PostgreSQL refuses to run as root, and this machine has no "${name}" user to run it as: ` +
        "install Debian's postgresql package (scripts/setup.sh), which creates it, or run docpipe " +
        'as another user, or set DATABASE_URL to a PostgreSQL of your own',
    );
  return { name, uid: Number(u), gid: Number(g), switched: true };
}
