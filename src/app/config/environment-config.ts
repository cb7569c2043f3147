import { parseDuration } from '../../base/util/index.js';

/**
 * Which of the spec's two environments (5.4) an installation is. Each is a deployment of its own,
 * with its own database, users, data and webhooks; API keys carry theirs in their prefix
 * (`dp_live_`, `dp_test_`), and a key of the other environment is refused.
 */
export type Environment = 'production' | 'test';

export const ENVIRONMENTS: readonly Environment[] = ['production', 'test'];

export const ENVIRONMENT_VARIABLE = 'DOCPIPE_ENVIRONMENT';
export const TEST_DATA_RETENTION_VARIABLE = 'DOCPIPE_TEST_DATA_RETENTION';

/** Spec 8: test data "may be cleared periodically"; a month leaves time to look back at a test run. */
export const DEFAULT_TEST_DATA_RETENTION = '30d';

export interface EnvironmentConfig {
  /** `DOCPIPE_ENVIRONMENT`: `production` or `test`. @defaultValue 'production' */
  environment: Environment;
  /**
   * `DOCPIPE_TEST_DATA_RETENTION`: in the test environment, the age at which the retention sweep
   * deletes a case (its rows and stored PDFs); `off` keeps them. Undefined in production, whatever
   * the variable says: production data is never cleared. @defaultValue '30d'
   */
  testDataRetentionMs: number | undefined;
}

export function environmentConfigFrom(
  env: NodeJS.ProcessEnv,
  problems: string[],
): EnvironmentConfig {
  const text = env[ENVIRONMENT_VARIABLE] || 'production';
  const known = (ENVIRONMENTS as readonly string[]).includes(text);
  if (!known)
    problems.push(
      `${ENVIRONMENT_VARIABLE} must be production or test (got "${text}"): each is an installation of its own, with its own database and keys`,
    );
  const environment: Environment = text === 'test' ? 'test' : 'production';
  // Checked in production too: a mistyped value is a mistake wherever it is made.
  const retentionText = env[TEST_DATA_RETENTION_VARIABLE] || DEFAULT_TEST_DATA_RETENTION;
  let retentionMs: number | undefined;
  if (retentionText !== 'off') {
    try {
      retentionMs = parseDuration(retentionText);
    } catch (err) {
      problems.push(`${TEST_DATA_RETENTION_VARIABLE}: ${(err as Error).message}, or off`);
    }
  }
  return {
    environment,
    testDataRetentionMs: environment === 'test' ? retentionMs : undefined,
  };
}
