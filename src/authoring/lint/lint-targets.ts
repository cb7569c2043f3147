import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Delimiters } from '../../document/fill/index.js';
import type { FieldDeclarations } from '../../document/values/index.js';
import {
  DOCUMENT_JSON,
  DocumentJsonError,
  LIBRARY_TEMPLATE,
  locateTemplate,
} from '../../document/library/index.js';

/** A template to lint, with what its library folder's document.json says. */
export interface LintTarget {
  template: string;
  /** The delimiters document.json sets, if it sets them. */
  delimiters?: Delimiters;
  /** The fields document.json declares, if it declares them. */
  fields?: FieldDeclarations;
  /** What is wrong with document.json, when it is there and wrong. */
  documentJson?: { file: string; problems: string[] };
}

/**
 * The templates named on the command line: a .docx (with its folder's document.json, when the
 * folder has one), a library document folder (its current version), or a folder of them.
 * A path that is neither is returned as a template, for reading it to say what is wrong.
 */
export async function lintTargets(paths: string[]): Promise<LintTarget[]> {
  const targets: LintTarget[] = [];
  for (const path of paths) {
    if (!isFolder(path) || isDocumentFolder(path)) targets.push(await target(path));
    else
      for (const name of (await readdir(path)).sort()) {
        const child = join(path, name);
        if (isFolder(child) && isDocumentFolder(child)) targets.push(await target(child));
      }
  }
  return targets;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isDocumentFolder(dir: string): boolean {
  return existsSync(join(dir, LIBRARY_TEMPLATE)) || existsSync(join(dir, DOCUMENT_JSON));
}

/**
 * A template found as every door finds one (locateTemplate), with a broken document.json kept as
 * a finding: lint names its problems beside the template's own.
 */
async function target(path: string): Promise<LintTarget> {
  try {
    const { file, settings } = await locateTemplate(path);
    return {
      template: file,
      ...(settings.delimiters ? { delimiters: settings.delimiters } : {}),
      ...(settings.fields ? { fields: settings.fields } : {}),
    };
  } catch (err) {
    if (!(err instanceof DocumentJsonError)) throw err;
    return {
      template: isFolder(path) ? join(path, LIBRARY_TEMPLATE) : path,
      documentJson: { file: err.file, problems: err.problems },
    };
  }
}
