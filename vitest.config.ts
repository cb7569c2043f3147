import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/slow-first-sequencer.js';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, so the
    // files ran one after another while most of an integration file's time is spent waiting (on
    // LibreOffice, a process that stops, a deadline). One more worker than cores keeps both cores
    // busy. VITEST_MAX_WORKERS overrides it.
    maxWorkers: availableParallelism() + 1,
    // The slowest integration files start first, so that none of them runs alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          // `npm run test:unit`: no LibreOffice, no servers, no built dist/. Threads that keep
          // their modules from file to file: loading src/ and its dependencies again for each
          // file cost more than the tests (104 s of CPU for the lane, 42 s shared). A test that
          // changes module state (pdf-lib's patch points, say) puts it back when it ends.
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // A folder for the workers' PostgreSQL servers (test/helpers/postgres.ts), and their
          // stop when the run ends.
          globalSetup: ['./test/helpers/postgres-global.ts'],
          // Piscina and LibreOffice start processes of their own; one fork per file keeps them
          // apart.
          pool: 'forks',
        },
      },
    ],
  },
});
