import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/app/config/index.js';

/** The problems loadConfig reports for `env`, none when it loads. */
function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

/**
 * A default never contradicts a setting that is valid alone: a default checked against another
 * setting gives way to it, and only two settings that contradict each other are refused.
 */
describe('a default beside a setting given alone', () => {
  it('a request timeout shorter than the default header timeout takes the header timeout down', () => {
    const { connections } = loadConfig({ DOCPIPE_HTTP_REQUEST_TIMEOUT: '5s' }).http;
    expect(connections.requestTimeoutMs).toBe(5_000);
    expect(connections.headersTimeoutMs).toBe(5_000);
    // Longer than the default header timeout, the request timeout leaves it as it is.
    expect(
      loadConfig({ DOCPIPE_HTTP_REQUEST_TIMEOUT: '2m' }).http.connections.headersTimeoutMs,
    ).toBe(10_000);
  });

  it('a header timeout longer than the default request timeout takes the request timeout up', () => {
    const { connections } = loadConfig({ DOCPIPE_HTTP_HEADERS_TIMEOUT: '45s' }).http;
    expect(connections.headersTimeoutMs).toBe(45_000);
    expect(connections.requestTimeoutMs).toBe(45_000);
  });

  it('a retention shorter than the default signed URL lifetime shortens the lifetime', () => {
    const uploads = loadConfig({ DOCPIPE_RETENTION_UPLOADS: '10m' });
    expect(uploads.http.signedUrlTtlSeconds).toBe(599);
    const renders = loadConfig({
      DOCPIPE_RETENTION_RENDERS: '1m',
      DOCPIPE_RETENTION_UPLOADS: '1h',
    });
    expect(renders.http.signedUrlTtlSeconds).toBe(59);
    // A longer one leaves the default (15 minutes).
    expect(loadConfig({ DOCPIPE_RETENTION_UPLOADS: '1h' }).http.signedUrlTtlSeconds).toBe(900);
  });

  it('two settings that contradict each other are still refused, naming both', () => {
    expect(
      problemsOf({ DOCPIPE_HTTP_REQUEST_TIMEOUT: '5s', DOCPIPE_HTTP_HEADERS_TIMEOUT: '6s' }),
    ).toEqual([
      'DOCPIPE_HTTP_HEADERS_TIMEOUT (6 s) must be at most DOCPIPE_HTTP_REQUEST_TIMEOUT (5 s): the headers are part of the request',
    ]);
    expect(
      problemsOf({ DOCPIPE_RETENTION_UPLOADS: '10m', DOCPIPE_SIGNED_URL_TTL_S: '900' }),
    ).toEqual([
      'DOCPIPE_SIGNED_URL_TTL_S (900 s) must be shorter than DOCPIPE_RETENTION_UPLOADS and DOCPIPE_RETENTION_RENDERS: a signed URL would outlive its document',
    ]);
  });
});
