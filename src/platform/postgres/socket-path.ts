import { join } from 'node:path';

/**
 * The longest path a Unix socket may have on Linux: sun_path holds 108 bytes, the last a NUL.
 * PostgreSQL names its socket `.s.PGSQL.<port>` in the socket folder.
 */
export const MAX_SOCKET_PATH_BYTES = 107;

/** The port only names the socket file: the embedded server listens on no TCP port. */
export const SOCKET_PORT = 5432;

export const socketFile = (socketDir: string, port = SOCKET_PORT) =>
  join(socketDir, `.s.PGSQL.${port}`);

/**
 * The socket path when it fits, else an error that says what to do: the folder is named by the
 * data folder, so a data folder deep in the tree makes a socket path too long to bind.
 */
export function checkSocketPath(socketDir: string, port = SOCKET_PORT): string {
  const file = socketFile(socketDir, port);
  const bytes = Buffer.byteLength(file);
  if (bytes > MAX_SOCKET_PATH_BYTES)
    throw new Error(
      `the embedded PostgreSQL's socket would be ${file}, ${bytes} bytes long, and a Unix socket ` +
        `path may have at most ${MAX_SOCKET_PATH_BYTES}: set DOCPIPE_DATA_DIR to a folder with a ` +
        `path ${bytes - MAX_SOCKET_PATH_BYTES} bytes shorter at least (such as /var/lib/docpipe), ` +
        'or set DATABASE_URL to a PostgreSQL of your own',
    );
  return file;
}
