import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { isDocpipeError } from '../errors/index.js';
import { compareImages, type ImageComparison, type PixelBox } from '../raster/index.js';
import { displayPath } from './display-path.js';
import { SNAPSHOT_DPI, type CheckSettings } from './check-settings.js';
import type { CheckProblem } from './outcome.js';
import { pageSnapshot, removeSnapshot, snapshotPages, writeSnapshot } from './snapshot-files.js';

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
  /** The rendered pages as grey PNGs, page 1 first. */
  images: Buffer[];
  /** Where this fixture's diff images go, and its hint for recording snapshots. */
  diffBase: string;
  updateHint: string;
}

/** Compares each page with its snapshot image, and the page count with theirs. */
export async function checkPages(
  pages: FixturePages,
  settings: CheckSettings,
): Promise<PagesCheck> {
  if (settings.update) return updatePages(pages, settings);
  const stored = await snapshotPages(pages.dir, pages.fixture);
  const problems: CheckProblem[] = [];
  if (stored.length === 0)
    return {
      problems: [
        {
          kind: 'snapshot-missing',
          message: `no page snapshots (snapshots/${pages.fixture}.p1.png ...): ${pages.updateHint}`,
        },
      ],
      updated: [],
      removed: [],
    };
  const recorded = stored[stored.length - 1]!;
  if (recorded !== pages.images.length)
    problems.push({
      kind: 'pages',
      message: `${pages.images.length} ${plural(pages.images.length, 'page')}; the snapshots have ${recorded}`,
    });
  for (let page = 1; page <= Math.min(recorded, pages.images.length); page++) {
    const problem = stored.includes(page)
      ? await comparePage(pages, page, settings)
      : {
          kind: 'snapshot-missing' as const,
          page,
          message: `page ${page}: snapshots/${pages.fixture}.p${page}.png is missing: ${pages.updateHint}`,
        };
    if (problem) problems.push(problem);
  }
  return { problems, updated: [], removed: [] };
}

async function comparePage(
  pages: FixturePages,
  page: number,
  settings: CheckSettings,
): Promise<CheckProblem | undefined> {
  const actual = pages.images[page - 1]!;
  const c = await compareWithSnapshot(
    pageSnapshot(pages.dir, pages.fixture, page),
    actual,
    settings,
  );
  if (c === undefined)
    return {
      kind: 'snapshot-missing',
      page,
      message: `page ${page}: snapshots/${pages.fixture}.p${page}.png is not a readable PNG: ${pages.updateHint}`,
    };
  if (c.same) return undefined;
  const diff = `${pages.diffBase}.p${page}.diff.png`;
  await writeSnapshot(diff, c.diff);
  await writeSnapshot(`${pages.diffBase}.p${page}.actual.png`, actual);
  return {
    kind: 'page-image',
    page,
    box: c.box,
    changed: c.changedRatio,
    diff,
    message: `page ${page}: ${describeChange(c)}; diff image: ${displayPath(diff)}`,
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
 * Records what differs or is missing: a page whose image is the same within the tolerance keeps
 * its file, so that snapshots made on another machine do not churn; pages past the end of a
 * document that got shorter are removed.
 */
async function updatePages(pages: FixturePages, settings: CheckSettings): Promise<PagesCheck> {
  const updated: string[] = [];
  const removed: string[] = [];
  for (const [i, image] of pages.images.entries()) {
    const path = pageSnapshot(pages.dir, pages.fixture, i + 1);
    if (existsSync(path) && (await compareWithSnapshot(path, image, settings))?.same) continue;
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

/** The comparison with a stored snapshot; undefined when the snapshot is not a readable PNG. */
async function compareWithSnapshot(
  path: string,
  actual: Buffer,
  settings: CheckSettings,
): Promise<ImageComparison | undefined> {
  try {
    return compareImages(await readFile(path), actual, settings);
  } catch (err) {
    if (isDocpipeError(err) && err.details[0]?.field === 'expected') return undefined;
    throw err;
  }
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
