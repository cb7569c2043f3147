import { relative } from 'node:path';
import type { CheckSettings } from './check-settings.js';
import { checkFixture, type RenderFixture } from './check-fixture.js';
import type { FixtureOutcome } from './outcome.js';
import { removeSnapshot, snapshotFixtures } from './snapshot-files.js';
import type { Fixture, TemplateFolder } from './template-folders.js';

export interface CheckRun {
  folders: TemplateFolder[];
  render: RenderFixture;
  settings: CheckSettings;
  /** Fixtures in progress at once: the office pool's size keeps every process busy. */
  concurrency: number;
  /** Called as each fixture finishes, in the order they finish. */
  onOutcome?: (outcome: FixtureOutcome) => void;
}

/** The row of a template folder without fixtures: nothing shows that it renders right. */
export const NO_FIXTURE = '-';

/**
 * Checks every fixture of every folder, `concurrency` at a time; outcomes come back in folder
 * and fixture order whatever order they finished in. A folder without fixtures fails as one row.
 */
export async function runCheck(run: CheckRun): Promise<FixtureOutcome[]> {
  const jobs: (() => Promise<FixtureOutcome>)[] = [];
  for (const folder of run.folders) {
    if (folder.fixtures.length === 0) {
      jobs.push(() => Promise.resolve(noFixtures(folder)));
      continue;
    }
    folder.fixtures.forEach((fixture: Fixture, i) =>
      jobs.push(async () => {
        const outcome = await checkFixture(folder, fixture, run.render, run.settings);
        if (i === 0 && run.settings.update)
          outcome.removed.push(...(await removeStaleSnapshots(folder)));
        return outcome;
      }),
    );
  }
  const outcomes: FixtureOutcome[] = new Array<FixtureOutcome>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      outcomes[i] = await jobs[i]!();
      run.onOutcome?.(outcomes[i]);
    }
  };
  const workers = Math.max(1, Math.min(run.concurrency, jobs.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}

function noFixtures(folder: TemplateFolder): FixtureOutcome {
  return {
    template: folder.id,
    fixture: NO_FIXTURE,
    ok: false,
    ms: 0,
    missing: [],
    problems: [
      folder.problem
        ? { kind: 'template', message: folder.problem }
        : {
            kind: 'template',
            message:
              'no fixtures: add fixtures/<name>.tags.json (TagInput values) and fixtures/<name>.expected.txt',
          },
    ],
    updated: [],
    removed: [],
    notices: [],
  };
}

/** Snapshots of fixtures that are gone (renamed or deleted), removed by `--update`. */
async function removeStaleSnapshots(folder: TemplateFolder): Promise<string[]> {
  const fixtures = new Set(folder.fixtures.map((f) => f.name));
  const removed: string[] = [];
  for (const [fixture, files] of await snapshotFixtures(folder.dir)) {
    if (fixtures.has(fixture)) continue;
    for (const file of files) {
      await removeSnapshot(file);
      removed.push(relative(folder.dir, file));
    }
  }
  return removed.sort();
}
