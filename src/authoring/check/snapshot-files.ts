import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Where `check --update` keeps a template's snapshots, beside its fixtures. */
export const SNAPSHOTS = 'snapshots';

/** `snapshots/<fixture>.txt`: the PDF's text as pdftotext -layout reads it. */
export function textSnapshot(dir: string, fixture: string): string {
  return join(dir, SNAPSHOTS, `${fixture}.txt`);
}

/** `snapshots/<fixture>.p<N>.png`: page N, grey, at SNAPSHOT_DPI. */
export function pageSnapshot(dir: string, fixture: string, page: number): string {
  return join(dir, SNAPSHOTS, `${fixture}.p${page}.png`);
}

/**
 * `snapshots/<fixture>.json`: `{"pages": N}`, the page count recorded. Kept apart from the
 * images so that a deleted last page reads as a missing snapshot, not as a shorter document.
 */
export function pagesSnapshot(dir: string, fixture: string): string {
  return join(dir, SNAPSHOTS, `${fixture}.json`);
}

/** The recorded page count; undefined when there is none, 'unreadable' when it is not one. */
export async function recordedPages(
  dir: string,
  fixture: string,
): Promise<number | undefined | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(pagesSnapshot(dir, fixture), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const pages = (JSON.parse(text) as { pages?: unknown }).pages;
    return Number.isInteger(pages) && (pages as number) >= 1 ? (pages as number) : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** As Prettier writes JSON, so that a repository's format check passes the snapshots. */
export function pagesSnapshotText(pages: number): string {
  return `{ "pages": ${pages} }\n`;
}

/** The page numbers that have a snapshot image, in order. */
export async function snapshotPages(dir: string, fixture: string): Promise<number[]> {
  const folder = join(dir, SNAPSHOTS);
  if (!existsSync(folder)) return [];
  const prefix = `${fixture}.p`;
  return (await readdir(folder))
    .filter((f) => f.startsWith(prefix) && f.endsWith('.png'))
    .map((f) => f.slice(prefix.length, -'.png'.length))
    .filter((n) => /^[1-9]\d*$/.test(n))
    .map(Number)
    .sort((a, b) => a - b);
}

/** The fixtures that have snapshot files: a snapshot whose fixture is gone is stale. */
export async function snapshotFixtures(dir: string): Promise<Map<string, string[]>> {
  const folder = join(dir, SNAPSHOTS);
  const byFixture = new Map<string, string[]>();
  if (!existsSync(folder)) return byFixture;
  for (const file of await readdir(folder)) {
    const fixture = /^(.+?)(?:\.p[1-9]\d*\.png|\.txt|\.json)$/.exec(file)?.[1];
    if (fixture === undefined) continue;
    byFixture.set(fixture, [...(byFixture.get(fixture) ?? []), join(folder, file)]);
  }
  return byFixture;
}

export async function writeSnapshot(path: string, data: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, data);
}

export async function removeSnapshot(path: string): Promise<void> {
  await rm(path, { force: true });
}
