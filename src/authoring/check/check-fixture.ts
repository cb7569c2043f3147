import { readFile, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { detailText, isDocpipeError } from '../../base/errors/index.js';
import {
  isPopplerMissingError,
  pdfText,
  rasterizePdf,
  toGrayPng,
} from '../../formats/raster/index.js';
import { SNAPSHOT_DPI, type CheckSettings } from './check-settings.js';
import { displayPath } from './display-path.js';
import { missingSnippets } from './expected-snippets.js';
import type { RenderedFixture } from './fixture-renderer.js';
import type { CheckProblem, FixtureOutcome } from './outcome.js';
import { checkPages, type PagesCheck } from './page-snapshots.js';
import type { Fixture, TemplateFolder } from './template-folders.js';
import { checkText } from './text-check.js';

/** Renders a fixture: the office pool in the CLI, a fake in unit tests. */
export type RenderFixture = (
  folder: TemplateFolder,
  template: Buffer,
  tags: unknown,
) => Promise<RenderedFixture>;

/**
 * Checks one fixture: renders it, then compares the PDF's text with expected.txt and the text
 * snapshot, its page count, and each page with its snapshot image; with `update`, records the
 * snapshots instead (expected.txt is still checked: it is written by hand).
 */
export async function checkFixture(
  folder: TemplateFolder,
  fixture: Fixture,
  render: RenderFixture,
  settings: CheckSettings,
): Promise<FixtureOutcome> {
  const started = performance.now();
  const outcome: FixtureOutcome = {
    template: folder.id,
    fixture: fixture.name,
    ok: false,
    ms: 0,
    missing: [],
    problems: [],
    updated: [],
    removed: [],
    notices: [],
  };
  const diffBase = join(settings.diffDir, folder.id, fixture.name);
  await clearDiffs(diffBase);
  await examine(outcome, { folder, fixture, render, settings, diffBase });
  outcome.ok = outcome.problems.length === 0;
  outcome.ms = Math.round(performance.now() - started);
  return outcome;
}

interface Examination {
  folder: TemplateFolder;
  fixture: Fixture;
  render: RenderFixture;
  settings: CheckSettings;
  /** This fixture's files under the diff folder, without their endings. */
  diffBase: string;
}

/** Adds to `outcome` what is wrong, stopping at the first step that cannot go on. */
async function examine(outcome: FixtureOutcome, e: Examination): Promise<void> {
  if (e.folder.problem) {
    outcome.problems.push({ kind: 'template', message: e.folder.problem });
    return;
  }
  const input = await readFixture(e.folder, e.fixture);
  if ('problem' in input) {
    outcome.problems.push(input.problem);
    return;
  }
  const read = await renderAndRead(outcome, e, input);
  if (!read) return;
  const missing = missingSnippets(input.expected, read);
  outcome.missing = missing.map((m) => m.line);
  for (const { line, why } of missing)
    outcome.problems.push({
      kind: 'expected',
      message: `expected text missing: ${JSON.stringify(line)} (${why})`,
    });
  const updateCommand = `docpipe check --update ${displayPath(e.folder.dir)}`;
  const context = { dir: e.folder.dir, fixture: e.fixture.name, diffBase: e.diffBase };
  const text = await checkText(
    { ...context, text: read.layout, updateHint: `run "${updateCommand}" to record it` },
    e.settings,
  );
  const checks: PagesCheck[] = [
    text,
    await checkPages(
      { ...context, pdf: read.pdf, images: read.images, textPages: text.pages, updateCommand },
      e.settings,
    ),
  ];
  for (const c of checks) {
    outcome.problems.push(...c.problems);
    outcome.updated.push(...c.updated);
    outcome.removed.push(...c.removed);
  }
}

/** The fixture's PDF read as text and pages; undefined (the failure noted) when it fails. */
async function renderAndRead(
  outcome: FixtureOutcome,
  e: Examination,
  input: { template: Buffer; tags: unknown },
): Promise<PdfReading | undefined> {
  try {
    const rendered = await e.render(e.folder, input.template, input.tags);
    outcome.pages = rendered.pages;
    outcome.notices = rendered.notices;
    return await readPdf(rendered.pdf);
  } catch (err) {
    // A machine without poppler stops the run; bad values or a PDF poppler cannot read fail
    // this fixture.
    if (isPopplerMissingError(err) || !isDocpipeError(err)) throw err;
    outcome.failure = err.toFailure();
    outcome.problems.push({ kind: 'render', message: failureWords(outcome.failure) });
    return undefined;
  }
}

interface PdfReading {
  pdf: Buffer;
  /** pdftotext -layout: the text snapshot. */
  layout: string;
  /** pdftotext in reading order: where expected lines are looked for. */
  plain: string;
  /** Each page, grey, at SNAPSHOT_DPI. */
  images: Buffer[];
}

async function readPdf(pdf: Buffer): Promise<PdfReading> {
  const [layout, plain, pages] = await Promise.all([
    pdfText(pdf, { layout: true }),
    pdfText(pdf, { layout: false }),
    rasterizePdf(pdf, { dpi: SNAPSHOT_DPI }),
  ]);
  return { pdf, layout, plain, images: pages.map((p, i) => toGrayPng(p, `page ${i + 1}`)) };
}

type FixtureInput =
  { template: Buffer; tags: unknown; expected: string } | { problem: CheckProblem };

async function readFixture(folder: TemplateFolder, fixture: Fixture): Promise<FixtureInput> {
  const [template, tagsText, expected] = await Promise.all([
    readFile(folder.template),
    readFile(fixture.tags, 'utf8'),
    fixture.expected ? readFile(fixture.expected, 'utf8') : Promise.resolve(''),
  ]);
  try {
    return { template, tags: JSON.parse(tagsText) as unknown, expected };
  } catch (err) {
    return {
      problem: {
        kind: 'fixture',
        message: `fixtures/${fixture.name}.tags.json is not valid JSON: ${(err as Error).message}`,
      },
    };
  }
}

/** The slug and each detail, on one line. */
function failureWords(failure: {
  error: string;
  details: { field: string; message: string }[];
}): string {
  const details = failure.details.map(detailText).join('; ');
  return details ? `${failure.error}: ${details}` : failure.error;
}

/** Diff images and texts of an earlier run of this fixture, which would now mislead. */
async function clearDiffs(diffBase: string): Promise<void> {
  const dir = dirname(diffBase);
  const name = basename(diffBase);
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return;
  }
  const ours = new RegExp(`^${escape(name)}(\\.p[1-9]\\d*\\.(diff|actual)\\.png|\\.txt)$`);
  await Promise.all(
    files.filter((f) => ours.test(f)).map((f) => rm(join(dir, f), { force: true })),
  );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
