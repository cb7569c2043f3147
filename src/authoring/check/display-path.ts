import { isAbsolute, relative } from 'node:path';

/** A path as a person in the current folder would type it: relative when it lies below. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
