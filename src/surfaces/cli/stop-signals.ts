/** Signals that stop a long-running command: Ctrl-C, a service manager, a closed terminal. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Counts stop signals: the first asks for a graceful stop, the second for an immediate one, a
 * third (something hangs) ends the process at once. Installed before anything starts, so that a
 * Ctrl-C during start-up also stops cleanly.
 */
export class StopSignals {
  /** Resolves with the first stop signal. */
  readonly first: Promise<NodeJS.Signals>;
  /** Resolves with the second: stop now, without waiting for running jobs. */
  readonly second: Promise<NodeJS.Signals>;
  private count = 0;
  private readonly handler: (signal: NodeJS.Signals) => void;

  constructor(onThird: (signal: NodeJS.Signals) => void) {
    let first!: (s: NodeJS.Signals) => void;
    let second!: (s: NodeJS.Signals) => void;
    this.first = new Promise((r) => (first = r));
    this.second = new Promise((r) => (second = r));
    this.handler = (signal) => {
      this.count++;
      if (this.count === 1) first(signal);
      else if (this.count === 2) second(signal);
      else onThird(signal);
    };
    for (const s of STOP_SIGNALS) process.on(s, this.handler);
  }

  /** How to ask for the next step, in the words of the signal that came. */
  static again(signal: NodeJS.Signals): string {
    return signal === 'SIGINT' ? 'press Ctrl-C again' : `send ${signal} again`;
  }

  dispose(): void {
    for (const s of STOP_SIGNALS) process.removeListener(s, this.handler);
  }
}
