import { afterEach, describe, expect, it, vi } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { EXIT } from '../../src/surfaces/cli/exit-codes.js';
import { reportTopLevelError } from '../../src/surfaces/cli/top-level-error.js';

/** What the handler wrote to stdout and stderr, and the exit status it answered. */
function report(err: unknown, argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const errs: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    errs.push(String(chunk));
    return true;
  });
  const status = reportTopLevelError(err, { argv: ['node', 'docpipe', ...argv], env });
  vi.restoreAllMocks();
  return { status, stdout: out.join(''), stderr: errs.join('') };
}

const bug = () => {
  const err = new RangeError('Invalid code point 16777215');
  err.stack = 'RangeError: Invalid code point 16777215\n    at String.fromCodePoint (<anonymous>)';
  return err;
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the docpipe command's top level", () => {
  it('reports an internal error in one line with what to do, and no stack trace', () => {
    const r = report(bug(), ['render', 'a.docx', '--out', 'a.pdf']);
    expect(r.status).toBe(EXIT.internal);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'docpipe: internal error: RangeError: Invalid code point 16777215. This is a bug in docpipe: run the command again with DOCPIPE_LOG_LEVEL=debug to see where it happened, and report it with that output.\n',
    );
  });

  it('prints JSON for an internal error too when --json was asked for', () => {
    const r = report(bug(), ['render', 'a.docx', '--out', 'a.pdf', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({
      error: 'document-production-failed',
      details: [
        {
          field: '',
          message: 'docpipe failed internally: RangeError: Invalid code point 16777215',
        },
      ],
      retryable: true,
    });
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('shows the stack only at DOCPIPE_LOG_LEVEL=debug', () => {
    const r = report(bug(), ['sniff', 'a.docx'], { DOCPIPE_LOG_LEVEL: 'debug' });
    expect(r.stderr).toMatch(/report it with the trace below\.\n/);
    expect(r.stderr).toMatch(/^\s+at String\.fromCodePoint/m);
  });

  it('prints a typed failure that escaped its command as every command prints one', () => {
    const err = new DocpipeError('unsupported-file-type', [
      { field: '', message: 'damaged: part word/embeddings/a.xlsx fails its CRC check' },
    ]);
    expect(report(err, ['lint', 'a.docx'])).toEqual({
      status: EXIT.failed,
      stdout: '',
      stderr: 'unsupported-file-type\n  damaged: part word/embeddings/a.xlsx fails its CRC check\n',
    });
    expect(JSON.parse(report(err, ['lint', 'a.docx', '--json']).stdout)).toEqual(err.toFailure());
  });

  it('reports what was thrown when it is no Error, still in one line', () => {
    const r = report('a string\nover two lines', ['sniff']);
    expect(r.stderr.split('\n')).toEqual([
      'docpipe: internal error: a string. This is a bug in docpipe: run the command again with DOCPIPE_LOG_LEVEL=debug to see where it happened, and report it with that output.',
      '',
    ]);
  });

  it('ends quietly when the reader of its output went away (docpipe --help | head)', () => {
    const closed = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
    expect(report(closed, ['--help'])).toEqual({ status: EXIT.ok, stdout: '', stderr: '' });
  });
});
