import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { KeyVerification, KeyVerifier } from './key-record.js';

export interface KeyUseRecorderOptions {
  /**
   * A key's use is written at most once in this time by one server, and the row is updated only
   * when its time is older than this (a second server's write in the same minute changes
   * nothing). "Last used" is shown to the minute; finer would cost a write a request.
   * @defaultValue 60 000 ms
   */
  everyMs?: number;
  /** Keys remembered at most; the oldest is forgotten first (it is then written again). @defaultValue 10 000 */
  maxEntries?: number;
  /** The clock. @defaultValue Date.now */
  now?: () => number;
  /** Told when a write failed (the database away); the use is written at the next chance. */
  onError?: (err: unknown) => void;
}

export const DEFAULT_KEY_USE_EVERY_MS = 60_000;

/**
 * Writes `api_keys.last_used_at` for the keys that authenticate requests, cheaply: at most once
 * a minute per key and server, remembered in memory, and never awaited by the request (the
 * write runs beside it; a failed one is told to `onError` and tried again at the key's next use).
 */
export class KeyUseRecorder {
  private readonly written = new Map<string, number>();
  private readonly everyMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: KeyUseRecorderOptions = {},
  ) {
    this.everyMs = options.everyMs ?? DEFAULT_KEY_USE_EVERY_MS;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    if (!Number.isSafeInteger(this.everyMs) || this.everyMs < 0)
      throw new Error(`everyMs must be a whole number of ms, 0 or more (got ${this.everyMs})`);
  }

  /** Notes that key `id` authenticated a request now; writes it unless it was written lately. */
  used(id: string): void {
    const at = this.now();
    const last = this.written.get(id);
    if (last !== undefined && at - last < this.everyMs) return;
    this.written.delete(id);
    if (this.written.size >= this.maxEntries)
      this.written.delete(this.written.keys().next().value!);
    this.written.set(id, at);
    const write = this.write(id, at).catch((err: unknown) => {
      // Written again at the key's next use.
      this.written.delete(id);
      this.options.onError?.(err);
    });
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Resolves once the writes begun so far have ended (tests; a server that stops). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private async write(id: string, at: number): Promise<void> {
    const when = new Date(at);
    const before = new Date(at - this.everyMs);
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: when })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
      .execute();
  }
}

/**
 * `verifier` that tells `recorder` each key that authenticated a request. The recorder's write
 * is not awaited: the answer is the verifier's, as fast as without it.
 */
export function recordingKeyUse(verifier: KeyVerifier, recorder: KeyUseRecorder): KeyVerifier {
  return {
    async verify(token: string): Promise<KeyVerification> {
      const verification = await verifier.verify(token);
      if (verification.ok) recorder.used(verification.identity.id);
      return verification;
    },
  };
}
