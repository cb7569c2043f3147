import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, slowest first, as measured on a 2-core machine (see
 * docs/development.md, "How long the suite takes"). A run is as long as its last worker: started
 * last, any of these would run alone at the end while the other workers sit idle.
 */
export const SLOW_FILES = [
  // The slowest of the last CI run (2026-12-05, 626 s), re-ranked after the CLI files moved
  // in-process (check-snapshots, cli-queue, template-doors, preview-cli about halved) and with
  // the new browser journeys (web-flows, dashboard settings) measured alone at about 50 s.
  'test/integration/dashboard-cases-journey-browser.test.ts',
  'test/integration/client-restart.test.ts',
  'test/integration/office-faults.test.ts',
  'test/integration/webflows-journey-browser.test.ts',
  'test/integration/dashboard-settings-browser.test.ts',
  'test/integration/queue-faults.test.ts',
  'test/integration/check-snapshots.test.ts',
  'test/integration/dashboard-journey-browser.test.ts',
  'test/integration/signing-e2e-browser.test.ts',
  'test/integration/start-stop.test.ts',
  'test/integration/start-stop-in-flight.test.ts',
  'test/integration/http-cases-v2.test.ts',
  'test/integration/companies-cli.test.ts',
  'test/integration/forms-cli.test.ts',
  'test/integration/cli.test.ts',
  'test/integration/cli-queue.test.ts',
  'test/integration/template-doors.test.ts',
  'test/integration/webhooks-cli.test.ts',
  'test/integration/preview-cli.test.ts',
  'test/integration/canary.test.ts',
  'test/integration/pdf-readers.test.ts',
  'test/integration/keys-cli.test.ts',
  'test/integration/corpus-convert.test.ts',
  'test/integration/cli-inputs.test.ts',
  'test/integration/libreoffice-convert.test.ts',
  'test/integration/office-pool.test.ts',
  'test/integration/check-library.test.ts',
  'test/integration/storage-cli.test.ts',
  'test/integration/docker-layout.test.ts',
  'test/integration/s3-http.test.ts',
  'test/integration/lint-cli.test.ts',
  'test/integration/cli-library-folder.test.ts',
  // The unit files that take longest: first in `npm run test:unit`, after the integration files
  // above in a whole run.
  'test/unit/office-queue.test.ts',
  'test/unit/lint-corpus.test.ts',
  'test/unit/logger.test.ts',
  'test/unit/data-lock.test.ts',
  'test/unit/pdf-check.test.ts',
];

/**
 * Vitest's order (its own timings of earlier runs where it has them, larger files first where
 * not), with the known slow files moved to the front: a clean clone has no timings yet, and
 * file size says little about how long a file waits on LibreOffice or on a process to stop.
 */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const i = SLOW_FILES.indexOf(relative(spec.project.config.root, spec.moduleId));
      return i === -1 ? SLOW_FILES.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
