import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Delimiters } from '../../document/fill/index.js';
import {
  DOCUMENT_JSON,
  currentTemplateFile,
  DocumentJsonError,
  LIBRARY_TEMPLATE,
  readDocumentJson,
  type DocumentJson,
} from '../../document/library/index.js';

/** A template to lint, with what its library folder's document.json says. */
export interface LintTarget {
  template: string;
  /** The delimiters document.json sets, if it sets them. */
  delimiters?: Delimiters;
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
    if (!isFolder(path)) targets.push(await targetOf(path, dirname(path)));
    else if (isDocumentFolder(path)) targets.push(await folderTarget(path));
    else
      for (const name of (await readdir(path)).sort()) {
        const child = join(path, name);
        if (isFolder(child) && isDocumentFolder(child)) targets.push(await folderTarget(child));
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

async function folderTarget(dir: string): Promise<LintTarget> {
  const settings = await settingsOf(dir);
  const file = settings.meta ? currentTemplateFile(settings.meta) : LIBRARY_TEMPLATE;
  return withSettings(join(dir, file), settings);
}

async function targetOf(template: string, dir: string): Promise<LintTarget> {
  return withSettings(template, await settingsOf(dir));
}

interface Settings {
  meta?: DocumentJson;
  delimiters?: Delimiters;
  problems?: { file: string; problems: string[] };
}

async function settingsOf(dir: string): Promise<Settings> {
  try {
    const { meta, options } = await readDocumentJson(dir);
    return { meta, ...(options.delimiters ? { delimiters: options.delimiters } : {}) };
  } catch (err) {
    if (!(err instanceof DocumentJsonError)) throw err;
    return { problems: { file: err.file, problems: err.problems } };
  }
}

function withSettings(template: string, settings: Settings): LintTarget {
  return {
    template,
    ...(settings.delimiters ? { delimiters: settings.delimiters } : {}),
    ...(settings.problems ? { documentJson: settings.problems } : {}),
  };
}
