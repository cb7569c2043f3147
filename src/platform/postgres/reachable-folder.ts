import { chmod, chown, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ServerUser } from './server-user.js';

/**
 * Makes `dir` reachable for the server's user, who must pass through every folder above it
 * (search permission) to open its data and bind its socket. The data folder itself (`ownDir`,
 * docpipe's) may be private to root, as a fresh `mktemp -d` is: then its group becomes the
 * server user's with search permission only (mode 0710), which lets that user through and no one
 * else. A folder further up that shuts it out is named, with what to do; docpipe does not change
 * folders it does not own.
 */
export async function makeReachable(dir: string, user: ServerUser, ownDir: string): Promise<void> {
  if (!user.switched) return;
  const above: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    above.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const folder of above) {
    const s = await stat(folder);
    if (canSearch(s, user)) continue;
    const myUid = process.getuid?.() ?? 0;
    // Private (no group or other bits): its group grants nothing yet, so handing it to the
    // server's group widens it to that group alone.
    if (folder === ownDir && s.uid === myUid && (s.mode & 0o077) === 0) {
      await chown(folder, s.uid, user.gid);
      await chmod(folder, (s.mode & 0o700) | 0o010);
      continue;
    }
    throw new Error(
      `the embedded PostgreSQL runs as the "${user.name}" user (PostgreSQL refuses to run as root), ` +
        `and ${folder} shuts that user out (mode ${(s.mode & 0o777).toString(8)}), so it cannot reach ` +
        `${dir}: set DOCPIPE_DATA_DIR to a folder outside it (such as /var/lib/docpipe), or let the ` +
        `user through with "chmod o+x ${folder}", or set DATABASE_URL to a PostgreSQL of your own`,
    );
  }
}

/**
 * The first folder above `dir` (its parents, not `dir` itself) that shuts `user` out, or undefined
 * when the user can reach `dir`.
 */
export async function blockingFolder(dir: string, user: ServerUser): Promise<string | undefined> {
  const above: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    above.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const folder of above) {
    const s = await stat(folder).catch(() => undefined);
    // A folder not made yet is made by docpipe, as root, with the usual mode 0755.
    if (s === undefined) return undefined;
    if (!canSearch(s, user)) return folder;
  }
  return undefined;
}

function canSearch(s: { uid: number; gid: number; mode: number }, user: ServerUser): boolean {
  if (s.uid === user.uid) return (s.mode & 0o100) !== 0;
  if (s.gid === user.gid) return (s.mode & 0o010) !== 0;
  return (s.mode & 0o001) !== 0;
}
