import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { lintTemplate } from '../../authoring/lint/index.js';
import type { FailureDetail } from '../../base/errors/index.js';
import { InputError, readInput, TooLargeInput } from '../../base/files/index.js';
import type { Delimiters } from '../../document/fill/index.js';
import type { FieldDeclarations } from '../../document/values/index.js';
import { sniff, type SniffLimits } from '../../formats/sniff/index.js';
import type { FormFileDocument } from './form-file.js';
import type { TagDefinition } from './form-types.js';

/** A form's template, read, sniffed and linted: ready to be stored. */
export interface FormTemplate {
  kind: 'docx' | 'pdf';
  bytes: Buffer;
  sha256: string;
}

export interface TemplateCheckOptions {
  /** The input limits every document is held to (config.limits). */
  limits: SniffLimits;
  /** The tag delimiters of the templates (config.delimiters). */
  delimiters: Delimiters;
}

/**
 * Each document's template from the form's folder: inside the folder (no `..`, no absolute path,
 * no link out of it), no larger than the input limit, and by its bytes a PDF or a real .docx
 * (sniffing decides, as for every document). A .docx is linted as `docpipe lint` does, with the
 * form's tags as its declared fields, so that each lint error refuses it: a tag the form does not
 * define (`undeclared_tag`: submit could never fill it, and nothing may be produced with an
 * unfilled placeholder), a broken tag or section, tracked changes, macros. Fonts are not looked
 * up: they are the worker's, which may be another machine. Every problem of every document at
 * once, each at `documents[i].file` naming the file.
 */
export async function readFormTemplates(
  folder: string,
  documents: readonly FormFileDocument[],
  tags: readonly TagDefinition[],
  options: TemplateCheckOptions,
): Promise<{ templates: FormTemplate[]; problems: FailureDetail[] }> {
  const problems: FailureDetail[] = [];
  const templates: FormTemplate[] = [];
  const root = await realpath(folder);
  const fields: FieldDeclarations = Object.fromEntries(tags.map((t) => [t.tag, { type: t.type }]));
  for (const [i, doc] of documents.entries()) {
    const field = `documents[${i}].file`;
    const say = (message: string) => problems.push({ field, message: `${doc.file}: ${message}` });
    const path = await insideFolder(root, doc.file);
    if (typeof path !== 'string') {
      say(path.problem);
      continue;
    }
    let bytes: Buffer | TooLargeInput;
    try {
      bytes = await readInput(path, options.limits.maxInputBytes);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      say('cannot be read (is it in the form folder?)');
      continue;
    }
    if (bytes instanceof TooLargeInput) {
      say(`is larger than the input limit of ${options.limits.maxInputBytes} bytes`);
      continue;
    }
    const sniffed = await sniff(bytes, options.limits);
    if (sniffed.kind === 'unsupported') {
      say(`is not a PDF or a .docx docpipe takes (${sniffed.reason}: ${sniffed.message})`);
      continue;
    }
    if (sniffed.kind === 'docx') {
      const errors = lintTemplate(bytes, {
        delimiters: options.delimiters,
        limits: options.limits,
        fonts: false,
        fields,
      }).filter((f) => f.severity === 'error');
      for (const f of errors) {
        const where = f.paragraph === null ? f.part : `${f.part} ¶${f.paragraph}`;
        say(`${where}: ${f.id}: ${formWords(f.explanation)}${f.fix ? ` Fix: ${f.fix}` : ''}`);
      }
      if (errors.length > 0) continue;
    }
    templates.push({
      kind: sniffed.kind,
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  return { templates, problems };
}

/** Lint speaks of a library document's document.json; here the fields are form.json's tags. */
function formWords(explanation: string): string {
  return explanation
    .replace('names no field that document.json declares', "is not among form.json's tags")
    .replace('document.json', 'form.json');
}

/** The real path of `file` when it lies inside `root` (links followed), or why it does not. */
async function insideFolder(root: string, file: string): Promise<string | { problem: string }> {
  if (isAbsolute(file) || file.split(/[\\/]/).includes('..'))
    return { problem: 'must be a path inside the form folder (relative, without "..")' };
  let path: string;
  try {
    path = await realpath(resolve(root, file));
  } catch {
    return { problem: 'does not exist in the form folder' };
  }
  const inside = relative(root, path);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside))
    return { problem: 'leads out of the form folder (a link?): keep the templates inside it' };
  return path;
}
