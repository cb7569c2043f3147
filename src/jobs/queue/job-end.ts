/** How a job ended, as its queue's events or its stored hash tell. */
export type JobEnd =
  | { ok: true; value: unknown }
  | { ok: false; reason: string }
  /** Neither finished nor there: removed, or lost by a Redis that restarted before saving it. */
  | { ok: false; gone: true };
