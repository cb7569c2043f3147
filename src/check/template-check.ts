import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isDocpipeError, type Failure } from '../errors/index.js';
import { parseDelimiters, type FillOptions } from '../fill/index.js';
import { documentText } from '../inspect/index.js';

/**
 * A library document folder: `template.docx`, `document.json` (name, description, locale,
 * delimiters) and `fixtures/<name>.tags.json` with `fixtures/<name>.expected.txt`, the lines the
 * filled document must contain.
 */
export interface TemplateFolder {
  id: string;
  dir: string;
  template: string;
  name: string;
  options: Pick<FillOptions, 'locale' | 'delimiters' | 'timeZone'>;
  fixtures: { name: string; tags: string; expected: string | undefined }[];
}

export interface FixtureOutcome {
  document: string;
  fixture: string;
  ok: boolean;
  /** Expected lines the filled text lacks. */
  missing: string[];
  failure?: Failure;
  ms: number;
}

/** Finds template folders: the folder itself when it holds a template.docx, else its children. */
export async function findTemplateFolders(dir: string): Promise<TemplateFolder[]> {
  if (existsSync(join(dir, 'template.docx'))) return [await readFolder(dir)];
  const folders: TemplateFolder[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const child = join(dir, name);
    if ((await stat(child)).isDirectory() && existsSync(join(child, 'template.docx'))) {
      folders.push(await readFolder(child));
    }
  }
  return folders;
}

async function readFolder(dir: string): Promise<TemplateFolder> {
  const id = basename(dir);
  const metaFile = join(dir, 'document.json');
  const meta = existsSync(metaFile)
    ? (JSON.parse(await readFile(metaFile, 'utf8')) as {
        name?: string;
        locale?: string;
        delimiters?: string;
        timeZone?: string;
      })
    : {};
  const delimiters = meta.delimiters ? parseDelimiters(meta.delimiters) : undefined;
  if (meta.delimiters && !delimiters)
    throw new Error(`${metaFile}: delimiters must be "start end", such as "{{ }}"`);
  const fixturesDir = join(dir, 'fixtures');
  const fixtures: TemplateFolder['fixtures'] = [];
  if (existsSync(fixturesDir)) {
    for (const file of (await readdir(fixturesDir)).sort()) {
      if (!file.endsWith('.tags.json')) continue;
      const name = file.slice(0, -'.tags.json'.length);
      const expected = join(fixturesDir, `${name}.expected.txt`);
      fixtures.push({
        name,
        tags: join(fixturesDir, file),
        expected: existsSync(expected) ? expected : undefined,
      });
    }
  }
  return {
    id,
    dir,
    template: join(dir, 'template.docx'),
    name: meta.name ?? id,
    options: { locale: meta.locale, timeZone: meta.timeZone, delimiters },
    fixtures,
  };
}

export type FillFunction = (
  template: Uint8Array,
  tags: unknown,
  options: FillOptions,
) => Promise<{ docx: Buffer }>;

/** Fills one fixture and compares the document's text with the expected lines. */
export async function checkFixture(
  folder: TemplateFolder,
  fixture: TemplateFolder['fixtures'][number],
  fill: FillFunction,
): Promise<FixtureOutcome> {
  const started = performance.now();
  const [template, tagsText, expectedText] = await Promise.all([
    readFile(folder.template),
    readFile(fixture.tags, 'utf8'),
    fixture.expected ? readFile(fixture.expected, 'utf8') : Promise.resolve(''),
  ]);
  const base = { document: folder.id, fixture: fixture.name };
  try {
    const { docx } = await fill(template, JSON.parse(tagsText), folder.options);
    const text = documentText(docx)
      .map((p) => p.text)
      .join('\n');
    const flat = text.replace(/\s+/g, ' ');
    const missing = expectedText
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !flat.includes(l.replace(/\s+/g, ' ')));
    return { ...base, ok: missing.length === 0, missing, ms: performance.now() - started };
  } catch (err) {
    if (!isDocpipeError(err)) throw err;
    return {
      ...base,
      ok: false,
      missing: [],
      failure: err.toFailure(),
      ms: performance.now() - started,
    };
  }
}
