import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { isDocpipeError } from '../../base/errors/index.js';
import { compareImages, type ImageComparison, type PixelBox } from '../../formats/raster/index.js';
import { displayPath } from './display-path.js';
import { SNAPSHOT_DPI, type CheckSettings } from './check-settings.js';
import type { CheckProblem } from './outcome.js';
import { writePageDiff } from './page-diff.js';
import {
  pageSnapshot,
  pagesSnapshot,
  pagesSnapshotText,
  recordedPages,
  removeSnapshot,
  snapshotPages,
  writeSnapshot,
} from './snapshot-files.js';

export interface PagesCheck {
  problems: CheckProblem[];
  /** Snapshot files written (update), relative to the template folder. */
  updated: string[];
  /** Snapshot files removed (update), relative to the template folder. */
  removed: string[];
}

export interface FixturePages {
  /** The template folder. */
  dir: string;
  fixture: string;
  /** The rendered PDF: a changed page is drawn from it again, larger, for its diff image. */
  pdf: Buffer;
  /** The rendered pages as grey PNGs, page 1 first. */
  images: Buffer[];
  /** Pages whose text differs from the text snapshot: their page lines say so. */
  textPages: readonly number[];
  /** Where this fixture's diff images go, without their endings. */
  diffBase: string;
  /** The command that records snapshots: `docpipe check --update <folder>`. */
  updateCommand: string;
}

/**
 * Compares the page count with the one recorded in `snapshots/<fixture>.json`, and each page
 * with its snapshot image. The count is recorded apart from the images, so that a deleted
 * image is reported missing, whichever page it was.
 */
export async function checkPages(
  pages: FixturePages,
  settings: CheckSettings,
): Promise<PagesCheck> {
  if (settings.update) return updatePages(pages, settings);
  const [stored, recorded] = await Promise.all([
    snapshotPages(pages.dir, pages.fixture),
    recordedPages(pages.dir, pages.fixture),
  ]);
  const hint = `run "${pages.updateCommand}" to record it`;
  if (stored.length === 0 && recorded === undefined)
    return {
      problems: [
        {
          kind: 'snapshot-missing',
          message: `no page snapshots (snapshots/${pages.fixture}.json, snapshots/${pages.fixture}.p1.png ...): ${hint}`,
        },
      ],
      updated: [],
      removed: [],
    };
  const problems = countProblems(pages, stored, recorded);
  const last = Math.min(typeof recorded === 'number' ? recorded : Infinity, pages.images.length);
  for (let page = 1; page <= last; page++) {
    const problem = stored.includes(page)
      ? await comparePage(pages, page, settings)
      : {
          kind: 'snapshot-missing' as const,
          page,
          message: `page ${page}: snapshots/${pages.fixture}.p${page}.png is missing: ${hint}`,
        };
    if (problem) problems.push(problem);
  }
  return { problems, updated: [], removed: [] };
}

/** The page count against the recorded one, and page images past the recorded end. */
function countProblems(
  pages: FixturePages,
  stored: number[],
  recorded: number | undefined | 'unreadable',
): CheckProblem[] {
  const name = `snapshots/${pages.fixture}.json`;
  if (recorded === undefined)
    return [
      {
        kind: 'snapshot-missing',
        message: `${name} (the page count) is missing: run "${pages.updateCommand}" to record it`,
      },
    ];
  if (recorded === 'unreadable')
    return [
      {
        kind: 'snapshot-missing',
        message: `${name} is not {"pages": N}: run "${pages.updateCommand}" to record it again`,
      },
    ];
  const problems: CheckProblem[] = [];
  const n = pages.images.length;
  if (recorded !== n)
    problems.push({
      kind: 'pages',
      message: `${n} ${plural(n, 'page')}; the snapshots have ${recorded}`,
    });
  const past = stored.filter((p) => p > recorded);
  if (past.length > 0)
    problems.push({
      kind: 'pages',
      message:
        `${past.map((p) => `snapshots/${pages.fixture}.p${p}.png`).join(', ')} ` +
        `${past.length === 1 ? 'is' : 'are'} past the ${recorded} ${plural(recorded, 'page')} of ${name}: ` +
        `run "${pages.updateCommand}" to remove ${past.length === 1 ? 'it' : 'them'}`,
    });
  return problems;
}

async function comparePage(
  pages: FixturePages,
  page: number,
  settings: CheckSettings,
): Promise<CheckProblem | undefined> {
  const actual = pages.images[page - 1]!;
  const path = pageSnapshot(pages.dir, pages.fixture, page);
  const c = await compareWithSnapshot(path, actual, settings);
  if (c === undefined)
    return {
      kind: 'snapshot-missing',
      page,
      message: `page ${page}: snapshots/${pages.fixture}.p${page}.png is not a readable PNG: run "${pages.updateCommand}" to record it again`,
    };
  if (c.comparison.same) return undefined;
  const diff = await writePageDiff({ ...c, pdf: pages.pdf, page, diffBase: pages.diffBase });
  const textDiffers = pages.textPages.includes(page);
  return {
    kind: 'page-image',
    page,
    box: c.comparison.box,
    changed: c.comparison.changedRatio,
    diff,
    textDiffers,
    message:
      `page ${page}: ${describeChange(c.comparison)}` +
      `${textDiffers ? '; the text differs too: see above' : ''}; diff image: ${displayPath(diff)}`,
  };
}

/** What changed on a page, and where, in pixels at SNAPSHOT_DPI and in centimetres. */
export function describeChange(c: ImageComparison): string {
  if (c.sizeChanged)
    return `the page is ${c.actual.width} x ${c.actual.height} px, its snapshot ${c.expected.width} x ${c.expected.height} (page size or orientation changed)`;
  const share = `${(c.changedRatio * 100).toFixed(2)}% of the page changed (${c.changedPixels} px)`;
  return c.box ? `${share} ${where(c.box)}` : share;
}

function where(box: PixelBox): string {
  const cm = (px: number): string => ((px / SNAPSHOT_DPI) * 2.54).toFixed(1);
  return (
    `at x ${box.x}-${box.x + box.width - 1}, y ${box.y}-${box.y + box.height - 1} px ` +
    `(${SNAPSHOT_DPI} dpi: ${cm(box.y)} to ${cm(box.y + box.height)} cm from the top)`
  );
}

/**
 * Records what differs or is missing: the page count when it changed, and a page image that
 * fails the comparison (one that is the same within the tolerance keeps its file, so that
 * snapshots made on another machine do not churn); pages past the end of a document that got
 * shorter are removed.
 */
async function updatePages(pages: FixturePages, settings: CheckSettings): Promise<PagesCheck> {
  const updated: string[] = [];
  const removed: string[] = [];
  if ((await recordedPages(pages.dir, pages.fixture)) !== pages.images.length) {
    const path = pagesSnapshot(pages.dir, pages.fixture);
    await writeSnapshot(path, pagesSnapshotText(pages.images.length));
    updated.push(relative(pages.dir, path));
  }
  for (const [i, image] of pages.images.entries()) {
    const path = pageSnapshot(pages.dir, pages.fixture, i + 1);
    if (existsSync(path) && (await compareWithSnapshot(path, image, settings))?.comparison.same)
      continue;
    await writeSnapshot(path, image);
    updated.push(relative(pages.dir, path));
  }
  for (const page of await snapshotPages(pages.dir, pages.fixture)) {
    if (page <= pages.images.length) continue;
    const path = pageSnapshot(pages.dir, pages.fixture, page);
    await removeSnapshot(path);
    removed.push(relative(pages.dir, path));
  }
  return { problems: [], updated, removed };
}

interface SnapshotComparison {
  comparison: ImageComparison;
  /** The snapshot image compared. */
  expected: Buffer;
}

/** The comparison with a stored snapshot; undefined when the snapshot is not a readable PNG. */
async function compareWithSnapshot(
  path: string,
  actual: Buffer,
  settings: CheckSettings,
): Promise<SnapshotComparison | undefined> {
  const expected = await readFile(path);
  try {
    return { comparison: compareImages(expected, actual, settings), expected };
  } catch (err) {
    if (isDocpipeError(err) && err.details[0]?.field === 'expected') return undefined;
    throw err;
  }
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
