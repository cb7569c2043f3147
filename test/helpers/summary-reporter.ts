import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Where each file's time is kept after a run (git ignores test/results/). */
const DURATIONS = join(import.meta.dirname, '..', 'results', 'durations.tsv');
/** How many of the slowest files the summary names. */
const SLOWEST_SHOWN = 12;

/**
 * Ends the run with one plain line, `N passed, N failed[, N skipped]`, that CI and people can read
 * without parsing vitest's coloured summary. Unhandled errors count as failures. Before it, the
 * slowest files with their times, and every file's time in test/results/durations.tsv: what to
 * look at when the suite grows past its budget (docs/development.md, "How long the suite takes").
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const times = testModules
      .map((m) => ({ file: relative(process.cwd(), m.moduleId), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms);
    if (times.length > 0) {
      mkdirSync(join(DURATIONS, '..'), { recursive: true });
      writeFileSync(
        DURATIONS,
        times.map((t) => `${Math.round(t.ms)}\t${t.file}`).join('\n') + '\n',
      );
      process.stdout.write('\nslowest files (ms):\n');
      for (const t of times.slice(0, SLOWEST_SHOWN))
        process.stdout.write(`${String(Math.round(t.ms)).padStart(8)}  ${t.file}\n`);
    }
    process.stdout.write(
      `\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
