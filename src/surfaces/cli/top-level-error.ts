import { isDocpipeError, type Failure } from '../../base/errors/index.js';
import { EXIT } from './exit-codes.js';
import { printJson } from './print-json.js';
import { printFailure } from './report-failure.js';

/** The log levels at which an internal error shows where it happened (its stack). */
const STACK_LEVELS = new Set(['debug', 'trace']);

/** What the top level knows of the run: the arguments (for --json) and the environment. */
export interface TopLevelContext {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
}

/**
 * What the docpipe command does with an error no command handled: it never prints a stack trace
 * unasked. A typed failure is printed as every command prints one (JSON with --json); anything
 * else is an internal error: one line saying so and what to do, and with --json the queue's
 * answer for it (`document-production-failed`, "docpipe failed internally"), so that a script
 * reading stdout still gets JSON. The stack is printed only at DOCPIPE_LOG_LEVEL=debug or trace.
 * Answers the exit status.
 */
export function reportTopLevelError(
  err: unknown,
  { argv, env }: TopLevelContext = { argv: process.argv, env: process.env },
): number {
  // The reader of the output went away (`docpipe --help | head`): nothing is wrong, and nobody
  // is left to tell.
  if (isClosedPipe(err)) return EXIT.ok;
  const json = argv.includes('--json');
  if (isDocpipeError(err)) {
    printFailure(err, json);
    return EXIT.failed;
  }
  const what = describe(err);
  if (json) {
    const failure: Failure = {
      error: 'document-production-failed',
      details: [{ field: '', message: `docpipe failed internally: ${what}` }],
      retryable: true,
    };
    printJson(failure);
  }
  const showStack = STACK_LEVELS.has(env.DOCPIPE_LOG_LEVEL ?? '');
  process.stderr.write(
    `docpipe: internal error: ${what}. This is a bug in docpipe: ${showStack ? 'report it with the trace below' : 'run the command again with DOCPIPE_LOG_LEVEL=debug to see where it happened, and report it with that output'}.\n`,
  );
  if (showStack && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return EXIT.internal;
}

/**
 * Routes errors that escape every await (an emitter's error, a promise nobody awaited) to
 * {@link reportTopLevelError} too, and ends the process: after one of those its state is unknown.
 */
export function handleStrayErrors(context?: TopLevelContext): void {
  const end = (err: unknown) => process.exit(reportTopLevelError(err, context));
  process.on('uncaughtException', end);
  process.on('unhandledRejection', end);
}

function isClosedPipe(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === 'EPIPE';
}

/** An error in one line: its message (the first line of it), else what was thrown. */
function describe(err: unknown): string {
  const text =
    err instanceof Error
      ? `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}`
      : String(err);
  const line = text.split('\n', 1)[0]!.trim();
  return line || 'an error without a message';
}
