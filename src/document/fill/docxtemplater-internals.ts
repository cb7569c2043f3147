import { createRequire } from 'node:module';
import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import type { CompiledPart } from '../fields/index.js';

/**
 * Every docxtemplater internal docpipe reads or writes is here, and only here. None has a public
 * equivalent in docxtemplater 3:
 *
 * - `compiled`: each templated file's compiled parts (`postparsed`), read to list a template's
 *   fields and to locate empty and missing tags. The public InspectModule hands out the same
 *   parts, but deep-copies every file's lexed and parsed forms on each compile.
 * - `rendered`: the flag with which render() refuses a second call. docxtemplater expects a new
 *   instance per render; docpipe clears the flag to render a cached compiled template again,
 *   which is sound because render() writes every templated file afresh from `compiled`.
 * - `invertedContentTypes`: the package's files by content type, read by the endnotes module.
 *
 * docxtemplater is pinned to this exact version in package.json;
 * {@link checkDocxtemplaterInternals} runs when the fill code loads and refuses another version
 * or internals that no longer behave as described, and test/unit/dependency-docxtemplater.test.ts
 * holds the pin and the behaviour.
 */
export const DOCXTEMPLATER_VERSION = '3.71.0';

export type CompiledFiles = Record<string, { postparsed: CompiledPart[] }>;

interface Internals {
  compiled?: unknown;
  rendered?: unknown;
  invertedContentTypes?: unknown;
}

const internals = (doc: Docxtemplater): Internals => doc as unknown as Internals;

/** The compiled parts of each templated file, by file name. */
export function compiledFiles(doc: Docxtemplater): CompiledFiles {
  return internals(doc).compiled as CompiledFiles;
}

/** Lets render() run again on a template it rendered already. */
export function allowRenderAgain(doc: Docxtemplater): void {
  internals(doc).rendered = false;
}

/** The files of the package with this content type (as docxtemplater read `[Content_Types]`). */
export function filesOfContentType(doc: unknown, contentType: string): string[] {
  const byType = (doc as Internals).invertedContentTypes as Record<string, string[]> | undefined;
  return byType?.[contentType] ?? [];
}

/** The version of docxtemplater that Node resolves from here. */
export function installedDocxtemplaterVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('docxtemplater/package.json') as { version: string }).version;
}

/** docxtemplater's class, or a changed one a test hands in. */
export type DocxtemplaterClass = new (
  zip: PizZip,
  options: Docxtemplater.DXT.ConstructorOptions,
) => Docxtemplater;

const MAIN_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const PROBE_FILE = 'word/document.xml';

/**
 * What is wrong with the internals on a tiny template compiled by `Ctor` (docxtemplater itself
 * unless a test hands in a changed one): an empty list when all behave as docpipe uses them.
 */
export function docxtemplaterInternalsProblems(
  Ctor: DocxtemplaterClass = Docxtemplater,
  version: string = installedDocxtemplaterVersion(),
): string[] {
  const problems: string[] = [];
  if (version !== DOCXTEMPLATER_VERSION)
    problems.push(`version ${version} is installed, not ${DOCXTEMPLATER_VERSION}`);
  let value = 'first';
  const zip = probeZip();
  let doc: Docxtemplater;
  try {
    doc = new Ctor(zip, { errorLogging: false, parser: () => ({ get: () => value }) });
  } catch (err) {
    return [...problems, `a one-tag template does not compile (${(err as Error).message})`];
  }
  const probe = internals(doc);
  const parts = (probe.compiled as Partial<CompiledFiles> | undefined)?.[PROBE_FILE]?.postparsed;
  const tag = Array.isArray(parts) ? parts.find((p) => p.type === 'placeholder') : undefined;
  if (tag?.value !== 'a' || typeof tag.offset !== 'number')
    problems.push(`compiled['${PROBE_FILE}'].postparsed does not hold the tag {a} with its offset`);
  if (!filesOfContentType(doc, MAIN_CONTENT_TYPE).includes(PROBE_FILE))
    problems.push('invertedContentTypes does not list the main document by its content type');
  if (probe.rendered !== false) problems.push('rendered is not false before the first render');
  problems.push(...renderAgainProblems(doc, zip, (v) => (value = v)));
  return problems;
}

function renderAgainProblems(
  doc: Docxtemplater,
  zip: PizZip,
  setValue: (value: string) => void,
): string[] {
  const text = () => zip.file(PROBE_FILE)?.asText() ?? '';
  try {
    doc.render();
  } catch (err) {
    return [`a one-tag template does not render (${(err as Error).message})`];
  }
  if (!text().includes('>first<')) return ['render() does not fill the tag'];
  if (internals(doc).rendered !== true) return ['rendered is not true after a render'];
  try {
    doc.render();
    return ['a second render() is not refused, so rendered is no longer the flag that refuses it'];
  } catch {
    // Refused, as expected: the flag is what stands in the way.
  }
  setValue('second');
  allowRenderAgain(doc);
  try {
    doc.render();
  } catch (err) {
    return [`render() after clearing rendered fails (${(err as Error).message})`];
  }
  return text().includes('>second<') && !text().includes('first')
    ? []
    : ['render() after clearing rendered does not write the new value in place of the old'];
}

function probeZip(): PizZip {
  const zip = new PizZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/${PROBE_FILE}" ContentType="${MAIN_CONTENT_TYPE}"/></Types>`,
  );
  zip.file(
    PROBE_FILE,
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      '<w:body><w:p><w:r><w:t>{a}</w:t></w:r></w:p></w:body></w:document>',
  );
  return zip;
}

/**
 * Refuses to go on with a docxtemplater whose internals are not those docpipe was built
 * against: a clear start-up error instead of templates that fill wrongly later.
 */
export function checkDocxtemplaterInternals(
  ...probe: Parameters<typeof docxtemplaterInternalsProblems>
): void {
  const problems = docxtemplaterInternalsProblems(...probe);
  if (problems.length > 0)
    throw new Error(
      `docpipe needs docxtemplater ${DOCXTEMPLATER_VERSION} exactly (it uses internals of it, ` +
        `listed in src/document/fill/docxtemplater-internals.ts): ${problems.join('; ')}. ` +
        `Install the version package.json names (npm ci).`,
    );
}
