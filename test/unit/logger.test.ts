import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { sourceChildArgs, sourceModule } from '../helpers/source-child.js';

const logModule = sourceModule('src/base/log/index.ts');

/** What a process using createLogger writes on stderr, its stderr being a pipe (not a terminal). */
function stderrOf(format: string): string {
  const script =
    `const { createLogger } = await import(${JSON.stringify(logModule)});` +
    `createLogger('info', 'docpipe', ${JSON.stringify(format)}).info({ jobs: 2 }, 'stopping: jobs still running');`;
  const r = spawnSync(process.execPath, [...sourceChildArgs, '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return r.stderr;
}

describe('logs: JSON for machines, readable for people', () => {
  it('writes one JSON object a line by default and when stderr is not a terminal', () => {
    for (const format of ['json', 'auto']) {
      const line = JSON.parse(stderrOf(format).trim()) as Record<string, unknown>;
      expect(line).toMatchObject({ level: 30, msg: 'stopping: jobs still running', jobs: 2 });
    }
  });

  it('writes readable lines with pretty', () => {
    const text = stderrOf('pretty');
    expect(() => JSON.parse(text.trim()) as unknown).toThrow();
    expect(text).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: stopping: jobs still running\n\s+jobs: 2\n/,
    );
  });

  it('takes DOCPIPE_LOG_FORMAT from the environment and refuses other values', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ DOCPIPE_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ DOCPIPE_LOG_FORMAT: 'xml' })).toThrow(
      /DOCPIPE_LOG_FORMAT must be one of auto, json, pretty \(got "xml"\)/,
    );
  });
});
