/**
 * Writes the template library's documents (templates/<id>/: template.docx, document.json and
 * fixtures) from scripts/library/. The output is committed with the script; `--check` rebuilds
 * in memory and names every file that differs from the library folder instead of writing.
 *
 *   npm run library                                   build, then write templates/
 *   node dist/scripts/make-library.js --check         exit 1 naming each file that differs
 *   node dist/scripts/make-library.js --out <dir>     write (or with --check, compare) elsewhere
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/base/paths/index.js';
import { CATALOGUE } from './library/catalogue.js';
import { compareLibrary, strayFiles } from './library/compare.js';
import { libraryFiles } from './library/library-document.js';

const USAGE = 'usage: node dist/scripts/make-library.js [--out dir] [--check]\n';

async function buildLibrary(): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const doc of CATALOGUE)
    for (const [path, bytes] of await libraryFiles(doc)) files.set(path, bytes);
  return files;
}

function writeLibrary(files: Map<string, Buffer>, dir: string): void {
  // A fixture dropped from the script must not linger beside the new ones.
  for (const path of strayFiles(files, dir)) rmSync(join(dir, path));
  for (const [path, bytes] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  process.stdout.write(`wrote ${CATALOGUE.length} documents (${files.size} files) under ${dir}\n`);
}

function checkLibrary(files: Map<string, Buffer>, dir: string): number {
  const differences = compareLibrary(files, dir);
  for (const d of differences) process.stdout.write(`${d.path}: ${d.problem}\n`);
  if (differences.length > 0) {
    process.stdout.write(
      `${differences.length} file(s) in ${dir} differ from what scripts/make-library.ts writes; run npm run library and commit the result\n`,
    );
    return 1;
  }
  process.stdout.write(`${dir}: all ${files.size} files match scripts/make-library.ts\n`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let options: { out?: string; check?: boolean };
  try {
    ({ values: options } = parseArgs({
      args: argv,
      options: { out: { type: 'string' }, check: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const dir = resolve(options.out ?? join(projectRoot(), 'templates'));
  const files = await buildLibrary();
  if (options.check) return checkLibrary(files, dir);
  writeLibrary(files, dir);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
