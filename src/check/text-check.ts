import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { CheckSettings } from './check-settings.js';
import type { PagesCheck } from './page-snapshots.js';
import { textSnapshot, writeSnapshot } from './snapshot-files.js';
import { normalizeText, textDifference } from './text-snapshot.js';

export interface FixtureText {
  dir: string;
  fixture: string;
  /** pdftotext -layout's text of the rendered PDF. */
  text: string;
  diffBase: string;
  updateHint: string;
}

/** Compares the PDF's layout text with `snapshots/<fixture>.txt`, or records it. */
export async function checkText(t: FixtureText, settings: CheckSettings): Promise<PagesCheck> {
  const path = textSnapshot(t.dir, t.fixture);
  const name = relative(t.dir, path);
  const text = normalizeText(t.text);
  const stored = existsSync(path) ? normalizeText(await readFile(path, 'utf8')) : undefined;
  if (settings.update) {
    if (stored === text) return { problems: [], updated: [], removed: [] };
    await writeSnapshot(path, text);
    return { problems: [], updated: [name], removed: [] };
  }
  if (stored === undefined)
    return {
      problems: [{ kind: 'snapshot-missing', message: `${name} is missing: ${t.updateHint}` }],
      updated: [],
      removed: [],
    };
  const d = textDifference(stored, text);
  if (!d) return { problems: [], updated: [], removed: [] };
  const now = `${t.diffBase}.txt`;
  await writeSnapshot(now, text);
  const more = d.differing > 2 ? ` (${d.differing} lines differ in all)` : '';
  const change =
    d.expected?.trim() === d.actual?.trim()
      ? `${quote(d.expected)} moved sideways (its indentation changed)`
      : `${quote(d.expected)} is now ${quote(d.actual)}`;
  return {
    problems: [
      {
        kind: 'text',
        page: d.page,
        diff: now,
        message:
          `text differs from ${name} on page ${d.page}, line ${d.line}: ` +
          `${change}${more}; the text as it is now: ${now}`,
      },
    ],
    updated: [],
    removed: [],
  };
}

function quote(line: string | undefined): string {
  if (line === undefined) return '(the end)';
  const trimmed = line.trim();
  return JSON.stringify(trimmed.length > 80 ? `${trimmed.slice(0, 77)}...` : trimmed);
}
