import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ZipArchive } from '../../src/formats/zip/index.js';

/** A file that differs between the built library and a library folder, and how. */
export interface Difference {
  path: string;
  problem: string;
}

/**
 * Compares built files with those in a library folder. A .docx is compared part by part (names,
 * order and contents), since zlib releases may deflate the same part to other bytes; every other
 * file byte for byte. Files in a built document's folder that the build did not write (a fixture
 * since removed) are differences too; snapshots are the check command's, not the script's.
 */
export function compareLibrary(built: Map<string, Buffer>, dir: string): Difference[] {
  const differences: Difference[] = [];
  for (const [path, bytes] of built) {
    const file = join(dir, path);
    if (!existsSync(file)) {
      differences.push({ path, problem: 'missing' });
      continue;
    }
    const problem = compareFile(path, bytes, readFileSync(file));
    if (problem) differences.push({ path, problem });
  }
  for (const path of strayFiles(built, dir))
    differences.push({ path, problem: 'not written by the script' });
  return differences;
}

function compareFile(path: string, built: Buffer, committed: Buffer): string | undefined {
  if (built.equals(committed)) return undefined;
  if (!path.endsWith('.docx')) return 'differs';
  return compareParts(ZipArchive.open(built), ZipArchive.open(committed));
}

function compareParts(built: ZipArchive, committed: ZipArchive): string | undefined {
  const names = built.entries.map((e) => e.name);
  const theirs = committed.entries.map((e) => e.name);
  if (names.join('\n') !== theirs.join('\n'))
    return `parts differ: ${names.join(', ')} against ${theirs.join(', ')}`;
  const changed = names.filter((name) => !built.read(name).equals(committed.read(name)));
  return changed.length ? `parts differ: ${changed.join(', ')}` : undefined;
}

/** Files under the built documents' folders (but not snapshots/) that the build did not write. */
export function strayFiles(built: Map<string, Buffer>, dir: string): string[] {
  const ids = new Set([...built.keys()].map((p) => p.split('/')[0]!));
  const stray: string[] = [];
  for (const id of [...ids].sort()) {
    for (const path of listFiles(dir, id)) if (!built.has(path)) stray.push(path);
  }
  return stray;
}

function listFiles(root: string, relative: string): string[] {
  const full = join(root, relative);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .sort()
    .flatMap((name) => {
      const path = `${relative}/${name}`;
      if (path.split('/')[1] === 'snapshots') return [];
      return statSync(join(root, path)).isDirectory() ? listFiles(root, path) : [path];
    });
}
