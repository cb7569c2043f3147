import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errorWords, InputError, writeAtomically } from '../../base/files/index.js';

const PAGE_FILE = /^page-([1-9][0-9]*)\.png$/;

/** The name of a page's image in a preview folder. */
export function pageFileName(page: number): string {
  return `page-${page}.png`;
}

/**
 * Writes page images as `page-1.png`, `page-2.png`, ... into a folder (made when missing) and
 * removes the pages an earlier, longer preview left past the last one, so that the folder shows
 * this document and nothing else. Files that are not page images are never touched. Returns the
 * paths written, in page order, joined to the folder as given.
 */
export async function writePageImages(dir: string, pages: readonly Buffer[]): Promise<string[]> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new InputError(`cannot make the folder ${dir}: ${errorWords(err)}`);
  }
  const paths: string[] = [];
  for (const [i, png] of pages.entries()) {
    const path = join(dir, pageFileName(i + 1));
    await writeAtomically(path, png);
    paths.push(path);
  }
  for (const name of await readdir(dir)) {
    const page = Number(PAGE_FILE.exec(name)?.[1] ?? 0);
    if (page > pages.length) await rm(join(dir, name), { force: true });
  }
  return paths;
}
