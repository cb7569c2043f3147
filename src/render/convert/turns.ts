/** No turn came within the wait allowed. */
export class TurnTimeout extends Error {
  override readonly name = 'TurnTimeout';
  constructor(readonly waitMs: number) {
    super(`no turn came within ${waitMs} ms`);
  }
}

interface Waiter {
  grant: () => void;
  fail: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Lets at most `limit` pieces of work run at once; the others wait in order, each at most
 * `waitMs` for its turn (the work itself has no deadline here).
 */
export class Turns {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Why no more work is taken, once closed. */
  private closedBy: string | undefined;

  constructor(
    private readonly limit: number,
    private readonly waitMs: number,
  ) {}

  /** Runs `work` in its turn; rejects with a TurnTimeout when none came within `waitMs`. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.take();
    try {
      return await work();
    } finally {
      this.give();
    }
  }

  /** Fails the work still waiting for a turn (what runs finishes) and every later run. */
  close(reason: string): void {
    this.closedBy = reason;
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.fail(new Error(reason));
    }
  }

  private take(): Promise<void> {
    if (this.closedBy !== undefined) return Promise.reject(new Error(this.closedBy));
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((grant, fail) => {
      const waiter: Waiter = {
        grant,
        fail,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          fail(new TurnTimeout(this.waitMs));
        }, this.waitMs),
      };
      this.waiting.push(waiter);
    });
  }

  /** Hands the turn to the first waiter, or frees it. */
  private give(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.running--;
      return;
    }
    clearTimeout(next.timer);
    next.grant();
  }
}
