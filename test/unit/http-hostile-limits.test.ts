import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_HTTP_CONNECTION_LIMITS,
  loadConfig,
} from '../../src/app/config/index.js';
import { jsonTextPasses, textNestsDeeperThan } from '../../src/base/files/index.js';
import { parseDuration } from '../../src/base/util/index.js';

/**
 * The limits that keep hostile HTTP clients from tying the server up (issue 21), without a
 * server: the depth scan of JSON text and the connection settings' validation. The behaviour on
 * real sockets is test/integration/http-hostile-connections.test.ts.
 */

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('textNestsDeeperThan', () => {
  it('counts arrays and objects alike, up to the limit and no further', () => {
    expect(textNestsDeeperThan(nested(3), 3)).toBe(false);
    expect(textNestsDeeperThan(nested(4), 3)).toBe(true);
    expect(textNestsDeeperThan('{"a":[{"b":{}}]}', 4)).toBe(false);
    expect(textNestsDeeperThan('{"a":[{"b":{"c":1}}]}', 3)).toBe(true);
    expect(textNestsDeeperThan('[[]],[[]],[[]]', 2)).toBe(false);
    expect(textNestsDeeperThan('1', 0)).toBe(false);
    expect(textNestsDeeperThan('', 0)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(textNestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(textNestsDeeperThan('["\\"[[[[", "]]"]', 1)).toBe(false);
    expect(textNestsDeeperThan('["\\\\", [[]]]', 2)).toBe(true);
    expect(textNestsDeeperThan('["\\\\", [[]]]', 3)).toBe(false);
    expect(textNestsDeeperThan('{"[": {"}": "{"}}', 2)).toBe(false);
  });

  it('stops at the first level past the limit of a body nested a million levels deep', () => {
    const text = `${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}`;
    // The characters it reads, counted (not timed: a loaded machine makes time say nothing).
    let reads = 0;
    const counted = {
      length: text.length,
      charCodeAt: (i: number) => {
        reads += 1;
        return text.charCodeAt(i);
      },
    } as unknown as string;
    expect(textNestsDeeperThan(counted, 32)).toBe(true);
    // Stopping at the 33rd level: 33 times `{"a":`, never the rest of the 7 MB.
    expect(reads).toBe(32 * 5 + 1);
  });

  it('lets text through that is not JSON, for the parser to judge', () => {
    expect(textNestsDeeperThan(']]]][[', 1)).toBe(false);
    expect(textNestsDeeperThan('"unterminated [[[[', 1)).toBe(false);
  });
});

describe('the HTTP connection limits', () => {
  it('default to 30 s a request, 10 s for headers, 5 s idle and 1024 connections', () => {
    expect(loadConfig({}).http.connections).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      maxConnections: 1024,
    });
    expect(DEFAULT_HTTP_CONNECTION_LIMITS.requestTimeoutMs).toBe(30_000);
  });

  it('read durations in seconds or minutes, and a count', () => {
    const config = loadConfig({
      DOCPIPE_HTTP_REQUEST_TIMEOUT: '2m',
      DOCPIPE_HTTP_HEADERS_TIMEOUT: '20s',
      DOCPIPE_HTTP_KEEP_ALIVE_TIMEOUT: '1s',
      DOCPIPE_HTTP_MAX_CONNECTIONS: '50',
    });
    expect(config.http.connections).toEqual({
      requestTimeoutMs: 120_000,
      headersTimeoutMs: 20_000,
      keepAliveTimeoutMs: 1_000,
      maxConnections: 50,
    });
  });

  it('report every bad value together, naming the variable and what to give', () => {
    const problems = problemsOf({
      DOCPIPE_HTTP_REQUEST_TIMEOUT: '30',
      DOCPIPE_HTTP_HEADERS_TIMEOUT: '0s',
      DOCPIPE_HTTP_KEEP_ALIVE_TIMEOUT: '2h',
      DOCPIPE_HTTP_MAX_CONNECTIONS: '0',
    });
    expect(problems).toEqual([
      'DOCPIPE_HTTP_REQUEST_TIMEOUT: "30" is not a duration: give a whole number and a unit, s (seconds), m (minutes), h (hours) or d (days), such as 30s',
      'DOCPIPE_HTTP_HEADERS_TIMEOUT: "0s" is no time at all: give at least 1s',
      'DOCPIPE_HTTP_KEEP_ALIVE_TIMEOUT must be at most 1h (got "2h")',
      'DOCPIPE_HTTP_MAX_CONNECTIONS must be a positive integer (got "0")',
    ]);
  });

  it('refuse a header timeout longer than the request timeout', () => {
    expect(
      problemsOf({ DOCPIPE_HTTP_REQUEST_TIMEOUT: '5s', DOCPIPE_HTTP_HEADERS_TIMEOUT: '6s' }),
    ).toEqual([
      'DOCPIPE_HTTP_HEADERS_TIMEOUT (6 s) must be at most DOCPIPE_HTTP_REQUEST_TIMEOUT (5 s): the headers are part of the request',
    ]);
    // A shorter request timeout set alone takes the default header timeout down with it
    // (test/unit/config-defaults.test.ts).
    expect(problemsOf({ DOCPIPE_HTTP_REQUEST_TIMEOUT: '5s' })).toEqual([]);
  });
});

describe('parseDuration with seconds', () => {
  it('reads seconds only when asked to', () => {
    expect(parseDuration('30s', { seconds: true })).toBe(30_000);
    expect(parseDuration('2m', { seconds: true })).toBe(120_000);
    expect(() => parseDuration('30s')).toThrow(/d \(days\), h \(hours\) or m \(minutes\)/);
  });
});

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('jsonTextPasses', () => {
  const bounds = { maxDepth: 4, maxValues: 5 };
  it('counts containers and commas outside strings', () => {
    expect(jsonTextPasses('[1,2,3,4]', bounds)).toBeUndefined(); // 1 array + 3 commas
    expect(jsonTextPasses('[1,2,3,4,5]', bounds)).toBeUndefined(); // 5
    expect(jsonTextPasses('[1,2,3,4,5,6]', bounds)).toBe('values');
    expect(jsonTextPasses('{"a":1,"b":[2,{}]}', bounds)).toBeUndefined(); // 3 containers + 2 commas
    expect(jsonTextPasses('{"a":1,"b":[2,{},3]}', bounds)).toBe('values');
  });

  it('does not count commas inside strings', () => {
    // An escaped backslash ends before the quote: the string closes there.
    expect(jsonTextPasses('["a,b,c,d,e,f,g", "\\\\", ",,,,", "\\",,,,"]', bounds)).toBeUndefined();
  });

  it('says which bound was passed first', () => {
    expect(jsonTextPasses('[[[[[1]]]]]', { maxDepth: 4, maxValues: 100 })).toBe('depth');
    expect(jsonTextPasses('[1,1,1,1,1,1,[[[[[1]]]]]]', bounds)).toBe('values');
  });
});
