import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/service/db/index.js';
import {
  KeyUseRecorder,
  recordingKeyUse,
  type KeyVerification,
} from '../../src/service/keys/index.js';

/** A database whose one update the recorder makes is counted, and fails while `down`. */
function fakeDb() {
  const state = { writes: [] as string[], down: false };
  const db = {
    updateTable: () => ({
      set: () => ({
        where: (_c: string, _op: string, id: string) => ({
          where: () => ({
            execute: () => {
              if (state.down) return Promise.reject(new Error('connection refused'));
              state.writes.push(id);
              return Promise.resolve();
            },
          }),
        }),
      }),
    }),
  } as unknown as Kysely<Database>;
  return { db, state };
}

describe('KeyUseRecorder', () => {
  it("writes a key's use once a minute, and again after a failed write", async () => {
    const { db, state } = fakeDb();
    let now = 0;
    const errors: unknown[] = [];
    const recorder = new KeyUseRecorder(db, { now: () => now, onError: (e) => errors.push(e) });
    recorder.used('a');
    recorder.used('a');
    recorder.used('b');
    await recorder.settled();
    expect(state.writes).toEqual(['a', 'b']);
    now = 59_999;
    recorder.used('a');
    await recorder.settled();
    expect(state.writes).toEqual(['a', 'b']);
    state.down = true;
    now = 60_000;
    recorder.used('a');
    await recorder.settled();
    expect(errors).toHaveLength(1);
    state.down = false;
    recorder.used('a');
    await recorder.settled();
    expect(state.writes).toEqual(['a', 'b', 'a']);
  });

  it('is told only of keys that verified, and never delays or changes the answer', async () => {
    const { db, state } = fakeDb();
    const recorder = new KeyUseRecorder(db);
    const answers: Record<string, KeyVerification> = {
      good: { ok: true, identity: { id: 'k1', company: 'acme', name: 'n' } },
      bad: { ok: false, reason: 'revoked' },
    };
    const verifier = recordingKeyUse({ verify: (t) => Promise.resolve(answers[t]!) }, recorder);
    expect(await verifier.verify('good')).toEqual(answers.good);
    expect(await verifier.verify('bad')).toEqual(answers.bad);
    await recorder.settled();
    expect(state.writes).toEqual(['k1']);
  });
});
