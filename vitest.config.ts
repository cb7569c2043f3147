import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/slow-first-sequencer.js';

/**
 * The integration files that run one after another in a fork that keeps its modules
 * (`integration-shared`, isolate: false): each builds its servers in-process over the helpers'
 * Redis and PostgreSQL and closes them, and leaves no process.env, module mock, fake timer,
 * working folder or global behind. Loading src/ (Kysely, fastify and their thousands of modules)
 * again for each of them took longer than many of their tests. The other integration files
 * (those that spawn docpipe or start LibreOffice pools, patch modules or change process state)
 * keep a fork of their own. A file added to test/integration runs isolated until it is listed here.
 */
const SHARED_INTEGRATION_FILES = [
  'test/integration/account-pages-browser.test.ts',
  'test/integration/account-pages.test.ts',
  'test/integration/account-sessions.test.ts',
  'test/integration/case-check.test.ts',
  'test/integration/case-documents-by-url.test.ts',
  'test/integration/case-limits.test.ts',
  'test/integration/case-refusal-leftovers.test.ts',
  'test/integration/cases-conformance-rules.test.ts',
  'test/integration/cases-isolation.test.ts',
  'test/integration/company-records.test.ts',
  'test/integration/corpus-sniff.test.ts',
  'test/integration/corpus-templates.test.ts',
  'test/integration/dashboard-case-page-browser.test.ts',
  'test/integration/dashboard-case-page.test.ts',
  'test/integration/dashboard-cases-list.test.ts',
  'test/integration/dashboard-credits-browser.test.ts',
  'test/integration/dashboard-credits.test.ts',
  'test/integration/dashboard-isolation.test.ts',
  'test/integration/dashboard-keys-webhooks-browser.test.ts',
  'test/integration/dashboard-keys-webhooks.test.ts',
  'test/integration/dashboard-members.test.ts',
  'test/integration/dashboard-message-templates.test.ts',
  'test/integration/dashboard-new-case-browser.test.ts',
  'test/integration/dashboard-new-case-settings.test.ts',
  'test/integration/dashboard-new-case.test.ts',
  'test/integration/dashboard-places-browser.test.ts',
  'test/integration/dashboard-settings.test.ts',
  'test/integration/dashboard-time-zone.test.ts',
  'test/integration/delivery-events.test.ts',
  'test/integration/eid-broker.test.ts',
  'test/integration/http-auth-rate-limit.test.ts',
  'test/integration/http-auth.test.ts',
  'test/integration/http-cases.test.ts',
  'test/integration/http-continue-linger.test.ts',
  'test/integration/http-convert-by-reference.test.ts',
  'test/integration/http-dependencies.test.ts',
  'test/integration/http-documents.test.ts',
  'test/integration/http-download-names.test.ts',
  'test/integration/http-files-corpus.test.ts',
  'test/integration/http-files-download.test.ts',
  'test/integration/http-files.test.ts',
  'test/integration/http-framework-errors.test.ts',
  'test/integration/http-hostile-connections.test.ts',
  'test/integration/http-idle-socket.test.ts',
  'test/integration/http-ops.test.ts',
  'test/integration/http-server.test.ts',
  'test/integration/http-upload-bounds.test.ts',
  'test/integration/keys-store.test.ts',
  'test/integration/messages-email.test.ts',
  'test/integration/messages-sms.test.ts',
  'test/integration/messages-smtp-tls.test.ts',
  'test/integration/operator-pages-browser.test.ts',
  'test/integration/operator-pages.test.ts',
  'test/integration/pages-kit.test.ts',
  'test/integration/partner-program.test.ts',
  'test/integration/partner-signup-browser.test.ts',
  'test/integration/pdf-readers.test.ts',
  'test/integration/queue-bullmq-layout.test.ts',
  'test/integration/queue-fairness.test.ts',
  'test/integration/queue-inline.test.ts',
  'test/integration/queue-upgrade.test.ts',
  'test/integration/retention-s3.test.ts',
  'test/integration/retention.test.ts',
  'test/integration/security-pages-browser.test.ts',
  'test/integration/signed-copy-by-reference.test.ts',
  'test/integration/signing-secret.test.ts',
  'test/integration/sso-pages.test.ts',
  'test/integration/two-factor-pages.test.ts',
  'test/integration/webflows-answer-browser.test.ts',
  'test/integration/webflows-answer-limits.test.ts',
  'test/integration/webflows-api.test.ts',
  'test/integration/webhooks.test.ts',
];

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
          name: 'integration-shared',
          include: SHARED_INTEGRATION_FILES,
          globalSetup: ['./test/helpers/postgres-global.ts'],
          pool: 'forks',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: SHARED_INTEGRATION_FILES,
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
