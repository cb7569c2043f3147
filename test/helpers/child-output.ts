import type { ChildProcess } from 'node:child_process';

/**
 * Resolves with `found()`'s answer once it gives one (anything but undefined), asked again each
 * time the child writes to stdout or stderr, the only moments the answer can change, instead of
 * on a timer. Rejects when the child ends first, or after `ms`, with `log()` in the message.
 */
export function untilOutput<T>(
  child: ChildProcess,
  found: () => T | undefined,
  ms: number,
  what: string,
  log: () => string,
): Promise<T> {
  const now = found();
  if (now !== undefined) return Promise.resolve(now);
  const ended = () => new Error(`${what}: the process ended first:\n${log()}`);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(ended());
  return new Promise<T>((resolve, reject) => {
    const streams = [child.stdout, child.stderr].filter((s) => s !== null);
    const settle = (end: boolean) => {
      try {
        const value = found();
        if (value === undefined && !end) return;
        stop();
        if (value === undefined) reject(ended());
        else resolve(value);
      } catch (err) {
        stop();
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    };
    // setImmediate: the owner's own 'data' listener, which appends to its log, has run by then,
    // whichever of the two was added first.
    const onData = () => setImmediate(() => settle(false));
    // What is still in the pipes arrives before 'close', not necessarily before 'exit'; 'close'
    // waits also for whatever inherited the pipes (a server it started), so not for long.
    const onClose = () => settle(true);
    let closeWait: NodeJS.Timeout | undefined;
    const onExit = () => (closeWait = setTimeout(onClose, 1000));
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${what}: not within ${ms} ms:\n${log()}`));
    }, ms);
    function stop() {
      clearTimeout(timer);
      clearTimeout(closeWait);
      for (const s of streams) s.off('data', onData);
      child.off('close', onClose);
      child.off('exit', onExit);
    }
    for (const s of streams) s.on('data', onData);
    child.once('close', onClose);
    child.once('exit', onExit);
  });
}
