import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { CheckSettings } from './check-settings.js';
import { displayPath } from './display-path.js';
import type { PagesCheck } from './page-snapshots.js';
import { textSnapshot, writeSnapshot } from './snapshot-files.js';
import {
  differingPages,
  normalizeText,
  textDifference,
  type TextDifference,
} from './text-snapshot.js';

export interface FixtureText {
  dir: string;
  fixture: string;
  /** pdftotext -layout's text of the rendered PDF. */
  text: string;
  diffBase: string;
  updateHint: string;
}

export interface TextCheck extends PagesCheck {
  /** Pages whose text differs from the snapshot, from 1: their page lines point to it. */
  pages: number[];
}

/** Compares the PDF's layout text with `snapshots/<fixture>.txt`, or records it. */
export async function checkText(t: FixtureText, settings: CheckSettings): Promise<TextCheck> {
  const path = textSnapshot(t.dir, t.fixture);
  const name = relative(t.dir, path);
  const text = normalizeText(t.text);
  const stored = existsSync(path) ? normalizeText(await readFile(path, 'utf8')) : undefined;
  const none: TextCheck = { problems: [], updated: [], removed: [], pages: [] };
  if (settings.update) {
    if (stored === text) return none;
    await writeSnapshot(path, text);
    return { ...none, updated: [name] };
  }
  if (stored === undefined)
    return {
      ...none,
      problems: [{ kind: 'snapshot-missing', message: `${name} is missing: ${t.updateHint}` }],
    };
  const d = textDifference(stored, text);
  if (!d) return none;
  const now = `${t.diffBase}.txt`;
  await writeSnapshot(now, text);
  const more = d.differing > 1 ? ` (${d.differing} lines differ in all)` : '';
  const change = describe(d);
  return {
    ...none,
    pages: differingPages(stored, text),
    problems: [
      {
        kind: 'text',
        page: d.page,
        diff: now,
        message:
          `text differs from ${name} on page ${d.page}, line ${d.line}: ` +
          `${change}${more}; the text as it is now: ${displayPath(now)}`,
      },
    ],
  };
}

function describe(d: TextDifference): string {
  const lines = (n: number): string => (n === 1 ? '1 line' : `${n} lines`);
  if (d.shift > 0) return `${lines(d.shift)} inserted before ${quote(d.expected)}`;
  if (d.shift < 0) return `${lines(-d.shift)} removed before ${quote(d.actual)}`;
  if (d.expected?.trim() === d.actual?.trim())
    return `${quote(d.expected)} moved sideways (its indentation changed)`;
  const at = firstDifference(d.expected ?? '', d.actual ?? '');
  return `${quote(d.expected, at)} is now ${quote(d.actual, at)}`;
}

/** Where two lines part, ignoring the indentation both have. */
function firstDifference(a: string, b: string): number {
  const [x, y] = [a.trim(), b.trim()];
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

/** A line as a quoted string, cut to QUOTE_CHARS around `at` (where it differs). */
function quote(line: string | undefined, at = 0): string {
  if (line === undefined) return '(the end)';
  const trimmed = line.trim();
  if (trimmed.length <= QUOTE_CHARS) return JSON.stringify(trimmed);
  const start = Math.max(0, Math.min(at - 30, trimmed.length - QUOTE_CHARS));
  const cut = trimmed.slice(start, start + QUOTE_CHARS);
  return JSON.stringify(
    `${start > 0 ? '...' : ''}${cut}${start + QUOTE_CHARS < trimmed.length ? '...' : ''}`,
  );
}

/** Enough of a line to recognise it in the template. */
const QUOTE_CHARS = 70;
