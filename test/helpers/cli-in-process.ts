import { runDocpipe } from '../../src/surfaces/cli/program.js';

/** What a docpipe command run in-process printed and ended with, as spawnSync answers it. */
export interface InProcessRun {
  status: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

/** One run at a time: the run borrows the process's streams, environment and exit code. */
let running: Promise<unknown> = Promise.resolve();

/**
 * A docpipe command run in the test's own process (src/surfaces/cli/program.ts), with its stdout
 * and stderr captured, `env` laid over process.env (an undefined value removes the variable) and
 * its exit status read from process.exitCode; each is put back when it ends. Spawning the built
 * CLI loads the whole program again (1 to 2 s on two cores) for what is often a few database rows;
 * a file keeps a few real spawns for what only a process shows (the binary, signals, stdin).
 * Neither stream is a terminal, as in a spawned child with pipes.
 */
export function docpipeInProcess(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<InProcessRun> {
  return docpipeInProcessAt(undefined, env, ...args);
}

/**
 * {@link docpipeInProcess} with `cwd` as the working folder while it runs (the process's own
 * when undefined), as an author runs docpipe in a folder of theirs; put back when it ends.
 */
export function docpipeInProcessAt(
  cwd: string | undefined,
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<InProcessRun> {
  const run = running.then(() => runOnce(cwd, env, args));
  running = run.catch(() => undefined);
  return run;
}

async function runOnce(
  cwd: string | undefined,
  env: Record<string, string | undefined>,
  args: string[],
): Promise<InProcessRun> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = {
    out: Object.getOwnPropertyDescriptor(process.stdout, 'write'),
    err: Object.getOwnPropertyDescriptor(process.stderr, 'write'),
    outTty: Object.getOwnPropertyDescriptor(process.stdout, 'isTTY'),
    errTty: Object.getOwnPropertyDescriptor(process.stderr, 'isTTY'),
    exitCode: process.exitCode,
    cwd: process.cwd(),
    env: Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]])),
  };
  const capture =
    (into: string[]): Write =>
    (chunk: unknown, encoding?: unknown, done?: unknown) => {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
      const callback = [encoding, done].find((a) => typeof a === 'function') as
        (() => void) | undefined;
      callback?.();
      return true;
    };
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true });
  Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
  setEnv(env);
  process.exitCode = undefined;
  try {
    if (cwd !== undefined) process.chdir(cwd);
    await runDocpipe([process.execPath, 'docpipe', ...args]);
    return { status: Number(process.exitCode ?? 0), stdout: out.join(''), stderr: err.join('') };
  } finally {
    restoreProperty(process.stdout, 'write', saved.out);
    restoreProperty(process.stderr, 'write', saved.err);
    restoreProperty(process.stdout, 'isTTY', saved.outTty);
    restoreProperty(process.stderr, 'isTTY', saved.errTty);
    setEnv(saved.env);
    process.exitCode = saved.exitCode;
    process.chdir(saved.cwd);
  }
}

function setEnv(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}

function restoreProperty(
  target: object,
  key: string,
  descriptor: PropertyDescriptor | undefined,
): void {
  if (descriptor) Object.defineProperty(target, key, descriptor);
  else delete (target as Record<string, unknown>)[key];
}
