import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import {
  DOCUMENT_JSON,
  LIBRARY_TEMPLATE,
  DocumentJsonError,
  locateTemplate,
  type DocumentFillOptions,
} from '../../document/library/index.js';

export interface Fixture {
  name: string;
  /** `fixtures/<name>.tags.json`: the TagInput array. */
  tags: string;
  /** `fixtures/<name>.expected.txt`: lines the PDF's text must hold; undefined when absent. */
  expected: string | undefined;
}

/**
 * A library document folder: `template.docx` (or the current version document.json names),
 * `document.json`, `fixtures/<name>.tags.json` with `fixtures/<name>.expected.txt`, and the
 * `snapshots/` that `check --update` writes.
 */
export interface TemplateFolder {
  /**
   * Its path relative to the folder checked, with `/` (`quote`, `lib/quote`); a template folder
   * checked by itself, its name.
   */
  id: string;
  dir: string;
  /** Path of the template tested: the current version. */
  template: string;
  /** The document's name (document.json), the PDF's title. */
  name: string;
  /** What document.json sets for filling: locale, time zone, delimiters, declared fields. */
  options: DocumentFillOptions;
  fixtures: Fixture[];
  /** Why the folder cannot be checked at all (a broken document.json, no template file). */
  problem?: string;
}

/** A folder is a template folder when it holds a template.docx or a document.json. */
export function isTemplateFolder(dir: string): boolean {
  return existsSync(join(dir, LIBRARY_TEMPLATE)) || existsSync(join(dir, DOCUMENT_JSON));
}

/**
 * How many folders down template folders are looked for: `templates/quote`, or
 * `project/lib/quote` when an author checks their project folder.
 */
export const SEARCH_DEPTH = 3;

/** Folders never searched: a template folder's own parts, packages, and dot-folders. */
export function isSkippedFolder(name: string): boolean {
  return name.startsWith('.') || SKIPPED.has(name);
}
const SKIPPED = new Set(['snapshots', 'fixtures', 'node_modules']);

/**
 * The template folders in `dir`: the folder itself when it is one, else those below it (up to
 * SEARCH_DEPTH folders below `root`, not inside one another), sorted by path, with ids relative
 * to `root` (the folder checked; `dir` itself, or a folder below it that appeared while
 * watching). A folder whose document.json is broken is still listed, with its problem, so that
 * it fails its row rather than vanish from the run.
 */
export async function findTemplateFolders(dir: string, root = dir): Promise<TemplateFolder[]> {
  if (isTemplateFolder(dir)) return [await readTemplateFolder(dir, templateId(root, dir))];
  const below = relative(root, dir).split(sep).filter(Boolean).length;
  if (below >= SEARCH_DEPTH) return [];
  const found = await templateDirsBelow(dir, SEARCH_DEPTH - below, dir === root);
  return Promise.all(found.map((d) => readTemplateFolder(d, templateId(root, d))));
}

/** A template folder's id: its path relative to the folder checked, with `/`. */
export function templateId(root: string, dir: string): string {
  const rel = relative(root, dir);
  return rel === '' || rel.startsWith('..') ? basename(dir) : rel.split(sep).join('/');
}

async function templateDirsBelow(dir: string, depth: number, top = false): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (err) {
    // The folder given must be readable; a private folder somewhere below it is passed by.
    const code = (err as NodeJS.ErrnoException).code;
    if (!top && (code === 'EACCES' || code === 'EPERM')) return [];
    throw err;
  }
  const found: string[] = [];
  for (const name of names) {
    const child = join(dir, name);
    if (isSkippedFolder(name) || !(await isFolder(child))) continue;
    if (isTemplateFolder(child)) found.push(child);
    else if (depth > 1) found.push(...(await templateDirsBelow(child, depth - 1)));
  }
  return found;
}

/** A folder, or a link to one; false for anything gone meanwhile. */
async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

export async function readTemplateFolder(dir: string, id = basename(dir)): Promise<TemplateFolder> {
  const fixtures = await readFixtures(join(dir, 'fixtures'));
  const base = { id, dir, template: join(dir, LIBRARY_TEMPLATE), name: basename(dir), fixtures };
  // Found as every door finds a template (locateTemplate): the current version, its settings.
  let location;
  try {
    location = await locateTemplate(dir);
  } catch (err) {
    if (!(err instanceof DocumentJsonError)) throw err;
    return { ...base, options: {}, problem: `${DOCUMENT_JSON}: ${err.problems.join('; ')}` };
  }
  const folder = {
    ...base,
    template: location.file,
    name: location.name ?? base.name,
    options: location.settings,
  };
  if (!existsSync(location.file))
    return {
      ...folder,
      problem: `${relative(dir, location.file)} is missing (the current version)`,
    };
  return folder;
}

async function readFixtures(dir: string): Promise<Fixture[]> {
  if (!existsSync(dir)) return [];
  const fixtures: Fixture[] = [];
  for (const file of (await readdir(dir)).sort()) {
    if (!file.endsWith('.tags.json')) continue;
    const name = file.slice(0, -'.tags.json'.length);
    const expected = join(dir, `${name}.expected.txt`);
    fixtures.push({
      name,
      tags: join(dir, file),
      expected: existsSync(expected) ? expected : undefined,
    });
  }
  return fixtures;
}
