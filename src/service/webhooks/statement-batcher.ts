/**
 * Gathers the calls made at about the same time into one call of `run` with all their items (one
 * SQL statement for many events' rows, one round trip to PostgreSQL instead of one each), at most
 * `max` items a call. A call joins the batch being gathered: the calls of the same turn of the
 * event loop, and those made while an earlier batch is on its way (group commit), so an idle
 * process adds no wait and a busy one sends fuller batches. `run` answers one output per item,
 * in the items' order. When a batch of several fails, its items are run again one by one, so a
 * bad item fails alone and the others go through; each item's caller sees only its own outcome.
 * With `max` 1 every call is run at once, alone: one statement per call.
 */
export class StatementBatcher<I, O> {
  private waiting: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: readonly I[]) => Promise<readonly O[]>,
    readonly max: number,
    /** Batches on their way at once; the rest wait for one to end, and gather meanwhile. */
    private readonly lanes = 2,
  ) {}

  add(item: I): Promise<O> {
    if (this.max <= 1) return this.one(item);
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.waiting.length >= this.max && this.inFlight < this.lanes) this.flush();
      else this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.lanes) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.waiting.length === 0 || this.inFlight >= this.lanes) return;
    const batch = this.waiting.splice(0, this.max);
    this.inFlight++;
    void this.runBatch(batch).finally(() => {
      this.inFlight--;
      if (this.waiting.length >= this.max) this.flush();
      else if (this.waiting.length > 0) this.schedule();
    });
  }

  private async runBatch(batch: typeof this.waiting): Promise<void> {
    let outputs: readonly O[];
    try {
      outputs = await this.run(batch.map((b) => b.item));
      if (outputs.length !== batch.length)
        throw new Error(`a batch of ${batch.length} answered ${outputs.length}`);
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      // One item may be what failed the statement: each alone, so only it fails.
      await Promise.all(
        batch.map((b) =>
          this.one(b.item).then(
            (o) => b.resolve(o),
            (e: unknown) => b.reject(e),
          ),
        ),
      );
      return;
    }
    batch.forEach((b, i) => b.resolve(outputs[i]!));
  }

  private async one(item: I): Promise<O> {
    const outputs = await this.run([item]);
    if (outputs.length !== 1) throw new Error(`a batch of 1 answered ${outputs.length}`);
    return outputs[0]!;
  }
}

/**
 * One batcher per key (a database handle and a batch size), made on first use: the deps objects
 * callers pass are often made anew per call, the database handle they carry is not.
 */
export function batcherFor<K extends object, I, O>(
  cache: WeakMap<K, Map<number, StatementBatcher<I, O>>>,
  key: K,
  max: number,
  make: (max: number) => StatementBatcher<I, O>,
): StatementBatcher<I, O> {
  let sizes = cache.get(key);
  if (!sizes) {
    sizes = new Map();
    cache.set(key, sizes);
  }
  let batcher = sizes.get(max);
  if (!batcher) {
    batcher = make(max);
    sizes.set(max, batcher);
  }
  return batcher;
}
