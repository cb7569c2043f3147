import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  DOCUMENT_JSON,
  DocumentJsonError,
  readDocumentJson,
  type DocumentFillOptions,
} from '../library/index.js';

/** The template a folder holds when its document.json names no versions. */
export const TEMPLATE_FILE = 'template.docx';

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
  /** The folder's name: the library document's id. */
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
  return existsSync(join(dir, TEMPLATE_FILE)) || existsSync(join(dir, DOCUMENT_JSON));
}

/**
 * The template folders in `dir`: the folder itself when it is one, else its sub-folders that
 * are, sorted by name. A folder whose document.json is broken is still listed, with its
 * problem, so that it fails its row rather than vanish from the run.
 */
export async function findTemplateFolders(dir: string): Promise<TemplateFolder[]> {
  if (isTemplateFolder(dir)) return [await readTemplateFolder(dir)];
  const folders: TemplateFolder[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const child = join(dir, name);
    if (!name.startsWith('.') && (await stat(child)).isDirectory() && isTemplateFolder(child))
      folders.push(await readTemplateFolder(child));
  }
  return folders;
}

export async function readTemplateFolder(dir: string): Promise<TemplateFolder> {
  const id = basename(dir);
  const fixtures = await readFixtures(join(dir, 'fixtures'));
  const base = { id, dir, template: join(dir, TEMPLATE_FILE), name: id, options: {}, fixtures };
  let settings;
  try {
    settings = await readDocumentJson(dir);
  } catch (err) {
    if (!(err instanceof DocumentJsonError)) throw err;
    return { ...base, problem: `${DOCUMENT_JSON}: ${err.problems.join('; ')}` };
  }
  const { meta, options } = settings;
  const versions = meta.versions ?? { '1': TEMPLATE_FILE };
  const current = meta.current ?? Object.keys(versions).at(-1);
  const file = current === undefined ? undefined : versions[current];
  const folder = { ...base, name: meta.name ?? id, options };
  if (!file) return { ...folder, problem: `${DOCUMENT_JSON} names no current version` };
  const template = join(dir, file);
  if (!existsSync(template))
    return { ...folder, template, problem: `${file} is missing (the current version)` };
  return { ...folder, template };
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
