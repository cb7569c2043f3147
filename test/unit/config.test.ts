import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/app/config/index.js';

describe('config', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      locale: 'da',
      timeZone: 'Europe/Copenhagen',
      delimiters: { start: '{', end: '}' },
      strictTags: false,
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.values).toEqual({
      maxValueChars: 10_000,
      maxTagsChars: 100_000,
      maxTags: 1_000,
      allowBidiControls: false,
    });
  });

  it('reads the value limits', () => {
    expect(
      loadConfig({
        DOCPIPE_MAX_VALUE_CHARS: '50000',
        DOCPIPE_MAX_TAGS_CHARS: '2000000',
        DOCPIPE_MAX_TAGS: '20',
        DOCPIPE_ALLOW_BIDI_CONTROLS: 'true',
      }).values,
    ).toEqual({
      maxValueChars: 50_000,
      maxTagsChars: 2_000_000,
      maxTags: 20,
      allowBidiControls: true,
    });
    expect(() => loadConfig({ DOCPIPE_ALLOW_BIDI_CONTROLS: 'maybe' })).toThrow(
      /DOCPIPE_ALLOW_BIDI_CONTROLS must be true or false/,
    );
    expect(() => loadConfig({ DOCPIPE_MAX_VALUE_CHARS: '0' })).toThrow(
      /DOCPIPE_MAX_VALUE_CHARS must be a positive integer/,
    );
  });

  it('reads every variable', () => {
    const config = loadConfig({
      DOCPIPE_LOCALE: 'sv',
      DOCPIPE_DELIMITERS: '{{ }}',
      DOCPIPE_STRICT_TAGS: 'true',
      DOCPIPE_ZIP_MAX_ENTRIES: '10',
      DOCPIPE_ENGINE_THREADS: '3',
      DOCPIPE_DATA_DIR: '/tmp/dp',
    });
    expect(config).toMatchObject({
      locale: 'sv',
      delimiters: { start: '{{', end: '}}' },
      strictTags: true,
      prepareThreads: 3,
      dataDir: '/tmp/dp',
    });
    expect(config.limits.maxEntries).toBe(10);
  });

  it('reports every problem together, naming the variable', () => {
    let caught: unknown;
    try {
      loadConfig({
        DOCPIPE_LOCALE: 'klingon',
        DOCPIPE_ZIP_MAX_RATIO: '-1',
        DOCPIPE_DELIMITERS: '{{',
        DOCPIPE_LOG_LEVEL: 'loud',
        DOCPIPE_STRICT_TAGS: 'yes',
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    for (const name of [
      'DOCPIPE_LOCALE',
      'DOCPIPE_ZIP_MAX_RATIO',
      'DOCPIPE_DELIMITERS',
      'DOCPIPE_LOG_LEVEL',
      'DOCPIPE_STRICT_TAGS',
    ]) {
      expect(problems).toContain(name);
    }
  });

  it('reads storage, retention and fairness, with their defaults', () => {
    const defaults = loadConfig({});
    expect(defaults.storage).toEqual({ kind: 'local' });
    expect(defaults.retention).toEqual({
      uploadsMs: 30 * 86_400_000,
      rendersMs: 30 * 86_400_000,
      sweepEveryMs: 3_600_000,
    });
    expect(defaults.fairness).toEqual({ maxQueued: 10_000, maxActive: 0 });
    expect(defaults.signingSecret).toBeUndefined();
    const given = loadConfig({
      DOCPIPE_STORAGE: 's3',
      DOCPIPE_S3_BUCKET: 'docs.example',
      DOCPIPE_S3_ENDPOINT: 'http://minio:9000/',
      DOCPIPE_S3_PREFIX: 'docpipe/prod',
      DOCPIPE_RETENTION_UPLOADS: '7d',
      DOCPIPE_RETENTION_RENDERS: 'off',
      DOCPIPE_RETENTION_SWEEP_EVERY: '15m',
      DOCPIPE_COMPANY_MAX_QUEUED: '0',
      DOCPIPE_COMPANY_MAX_ACTIVE: '4',
    });
    expect(given.storage).toEqual({
      kind: 's3',
      bucket: 'docs.example',
      endpoint: 'http://minio:9000',
      prefix: 'docpipe/prod/',
      forcePathStyle: true,
    });
    expect(given.retention).toEqual({
      uploadsMs: 7 * 86_400_000,
      rendersMs: undefined,
      sweepEveryMs: 900_000,
    });
    expect(given.fairness).toEqual({ maxQueued: 0, maxActive: 4 });
  });

  it('refuses S3 without a bucket, bad ages, and a signed URL that outlives its document', () => {
    let caught: unknown;
    try {
      loadConfig({
        DOCPIPE_STORAGE: 's3',
        DOCPIPE_S3_PREFIX: '../up',
        DOCPIPE_RETENTION_UPLOADS: '30 days',
        DOCPIPE_RETENTION_RENDERS: '1h',
        DOCPIPE_SIGNED_URL_TTL_S: '3600',
        DOCPIPE_COMPANY_MAX_ACTIVE: '-1',
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toContain('DOCPIPE_S3_BUCKET is required');
    expect(problems.join('\n')).toContain('DOCPIPE_S3_PREFIX');
    expect(problems.join('\n')).toContain('DOCPIPE_RETENTION_UPLOADS: "30 days" is not a duration');
    expect(problems.join('\n')).toContain('a signed URL would outlive its document');
    expect(problems.join('\n')).toContain('DOCPIPE_COMPANY_MAX_ACTIVE');
    expect(() => loadConfig({ DOCPIPE_STORAGE: 'ftp' })).toThrow(
      /DOCPIPE_STORAGE must be local or s3/,
    );
  });
});
