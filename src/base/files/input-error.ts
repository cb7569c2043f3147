/**
 * A problem with what the caller gave rather than with a document: a path that cannot be read, a
 * file that is not JSON, a malformed manifest. The CLI reports it as bad usage (exit 2); the
 * HTTP server will answer 400.
 */
export class InputError extends Error {
  override readonly name: string = 'InputError';
}

/** What a file system error means, in words, with its code for searching. */
export function errorWords(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'no such file or folder',
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EISDIR: 'it is a folder',
    ENOTDIR: 'a part of the path is not a folder',
    ENOSPC: 'no space left on the device',
    EROFS: 'the file system is read-only',
    ENXIO: 'not a file that can be read (a socket?)',
  };
  if (code && words[code]) return `${words[code]} (${code})`;
  return code ?? (err as Error).message;
}
