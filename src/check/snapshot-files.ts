import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
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
    const fixture = /^(.+?)(?:\.p[1-9]\d*\.png|\.txt)$/.exec(file)?.[1];
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
