import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The project root: the nearest folder above this file whose package.json is docpipe's. */
export function projectRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && packageName(manifest) === 'docpipe') {
      root = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('cannot find docpipe package.json above ' + import.meta.url);
    dir = parent;
  }
}

function packageName(manifest: string): unknown {
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
}

/**
 * Path of a compiled worker entry. Workers run as plain JavaScript in their own thread or
 * process, so they always load from dist/, also when the caller runs from TypeScript in tests.
 */
export function workerFile(name: string): string {
  const file = join(projectRoot(), 'dist', 'workers', `${name}.js`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  return file;
}
