import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../src/base/paths/index.js';

/**
 * Node's arguments for a child process that imports docpipe's TypeScript source, such as
 * `src/base/log/index.ts`, without a build: a unit test's child then runs the code under test,
 * not whatever dist/ was last built from.
 */
export const sourceChildArgs = [
  '--import',
  pathToFileURL(join(projectRoot(), 'test', 'helpers', 'source-register.mjs')).href,
];

/** The file URL of a source module, for the child's `import()`. */
export function sourceModule(path: string): string {
  return pathToFileURL(join(projectRoot(), path)).href;
}
