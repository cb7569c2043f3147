import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OfficePool, type OfficePoolOptions } from '../../src/render/convert/index.js';
import type { Logger } from '../../src/base/log/index.js';
import { projectRoot } from '../../src/base/paths/index.js';

// The office pool with its office faked (test/helpers): the "python" it starts is a script that
// speaks the bridge's protocol and does what each document says, so queueing, deadlines and
// retries can be driven to the millisecond. The real LibreOffice is in test/integration.
const helpers = join(projectRoot(), 'test', 'helpers');
const fake: OfficePoolOptions = {
  pythonPath: join(helpers, 'fake-office-bridge.py'),
  sofficePath: join(helpers, 'fake-soffice.sh'),
  network: 'profile',
  allocator: 'system',
};
const doc = (text: string) => Buffer.from(text);

async function waitUntil(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function recordingLogger() {
  const warnings: { obj: object; msg?: string }[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn: (obj, msg) => warnings.push({ obj, msg }),
    error() {},
  };
  /** The failed attempts logged for one document. */
  const warningsFor = (field: string) =>
    warnings.filter((w) => (w.obj as { field?: string }).field === field);
  return Object.assign(logger, { warnings, warningsFor });
}

describe('office pool queueing at the bridge (faked office)', () => {
  it('counts each conversion deadline from when it starts, not while it waits behind another', async () => {
    // 1.2 s each against a 2 s deadline: the second ends 2.4 s after it was handed over.
    const pool = await OfficePool.start({
      ...fake,
      processes: 1,
      queueDepth: 2,
      conversionTimeoutMs: 2000,
    });
    try {
      const started = performance.now();
      const [a, b] = await Promise.all([
        pool.convert({ docx: doc('sleep 1.2'), field: 'documents[0]' }),
        pool.convert({ docx: doc('sleep 1.2'), field: 'documents[1]' }),
      ]);
      expect(performance.now() - started).toBeGreaterThan(2300);
      expect(a.subarray(0, 5).toString()).toBe('%PDF-');
      expect(b.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pool.stats()).toMatchObject({ conversions: 2, restarts: 0 });
    } finally {
      await pool.close();
    }
  });

  it('hands waiting conversions to the office in order of their place, arrivals in order among equals', async () => {
    const pool = await OfficePool.start({ ...fake, processes: 1, queueDepth: 1 });
    try {
      const finished: string[] = [];
      const convert = (field: string, place?: number) =>
        pool
          .convert({ docx: doc('sleep 0.05'), field, place })
          .then(() => void finished.push(field));
      // The first takes the office; the rest wait, arriving in this order.
      const all = [convert('first', 50)];
      await waitUntil(() => pool.stats().waiting === 0);
      all.push(
        convert('unplaced'),
        convert('batch-7', 7),
        convert('batch-8', 8),
        convert('other-2', 2),
        convert('other-2-later', 2),
      );
      await waitUntil(() => pool.stats().waiting === 5);
      await Promise.all(all);
      expect(finished).toEqual([
        'first',
        'other-2',
        'other-2-later',
        'batch-7',
        'batch-8',
        'unplaced',
      ]);
    } finally {
      await pool.close();
    }
  });

  it('still kills a process whose conversion passes its deadline', async () => {
    const pool = await OfficePool.start({
      ...fake,
      processes: 1,
      queueDepth: 2,
      conversionTimeoutMs: 500,
    });
    try {
      await expect(
        pool.convert({ docx: doc('sleep 5'), field: 'documents[3]' }),
      ).rejects.toMatchObject({
        slug: 'document-conversion-failed',
        details: [{ field: 'documents[3]' }],
      });
      expect(pool.stats().restarts).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('hands one more conversion to a busy process only when none is idle', async () => {
    const pool = await OfficePool.start({ ...fake, processes: 2, queueDepth: 2 });
    try {
      const first = pool.convert({ docx: doc('sleep 0.5'), field: 'documents[0]' });
      const second = pool.convert({ docx: doc('sleep 0.5'), field: 'documents[1]' });
      // One each: the second went to the idle process, not behind the first.
      await waitUntil(() => pool.stats().busy === 2);
      const more = ['documents[2]', 'documents[3]', 'documents[4]'].map((field) =>
        pool.convert({ docx: doc('ok'), field }),
      );
      // Two more wait in the bridges (one each); the fifth waits in the pool.
      await waitUntil(() => pool.stats().waiting === 1);
      expect(pool.stats()).toMatchObject({ busy: 2, conversions: 0 });
      await Promise.all([first, second, ...more]);
      expect(pool.stats()).toMatchObject({ conversions: 5, waiting: 0 });
    } finally {
      await pool.close();
    }
  });

  it('retries a conversion that waited behind a crash without using up its one retry', async () => {
    const logger = recordingLogger();
    const pool = await OfficePool.start({ ...fake, processes: 1, queueDepth: 2 }, logger);
    try {
      // It crashes after a while, so that the other is queued behind it by then.
      const crashing = pool.convert({ docx: doc('sleep 0.3 crash'), field: 'documents[0]' });
      await waitUntil(() => pool.stats().busy === 1);
      const innocent = pool.convert({ docx: doc('ok'), field: 'documents[1]' });
      // The crashing document takes down the process twice: the first try and its one retry.
      await expect(crashing).rejects.toMatchObject({
        slug: 'document-conversion-failed',
        details: [{ field: 'documents[0]' }],
      });
      expect((await innocent).subarray(0, 5).toString()).toBe('%PDF-');
      const innocentFailures = logger.warningsFor('documents[1]');
      expect(innocentFailures.length).toBeGreaterThanOrEqual(1);
      for (const w of innocentFailures) {
        expect(w.msg).toMatch(/before the conversion began/);
        expect(w.obj).toMatchObject({ retry: true });
      }
    } finally {
      await pool.close();
    }
  });

  it('reads what the bridge said before it died: a finished conversion keeps its PDF', async () => {
    // The bridge answers the first, begins the second and dies, all while docpipe is busy: its
    // exit and its last words arrive together, in no particular order.
    const logger = recordingLogger();
    const pool = await OfficePool.start({ ...fake, processes: 1, queueDepth: 2 }, logger);
    try {
      const first = pool.convert({ docx: doc('ok'), field: 'documents[0]' });
      const second = pool.convert({ docx: doc('crash'), field: 'documents[1]' });
      await waitUntil(() => pool.stats().busy === 1);
      const until = Date.now() + 500;
      while (Date.now() < until); // docpipe busy: the bridge gets ahead of it
      expect((await first).subarray(0, 5).toString()).toBe('%PDF-');
      await expect(second).rejects.toMatchObject({ slug: 'document-conversion-failed' });
      expect(logger.warningsFor('documents[0]')).toEqual([]);
      // The crashing document began both times, so it had its one retry and no more.
      expect(
        logger.warningsFor('documents[1]').map((w) => (w.obj as { retry: boolean }).retry),
      ).toEqual([true, false]);
    } finally {
      await pool.close();
    }
  });

  it('ends the conversions handed to it when closed, rather than leaving them to wait', async () => {
    const pool = await OfficePool.start({ ...fake, processes: 1, queueDepth: 2 });
    const pending = ['documents[0]', 'documents[1]', 'documents[2]'].map((field) =>
      pool.convert({ docx: doc('sleep 3'), field }),
    );
    const settling = Promise.allSettled(pending);
    await waitUntil(() => pool.stats().waiting === 1);
    await pool.close();
    // Each ends at once: this test's 10 s limit is shorter than the 60 s queue deadline.
    const settled = await settling;
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
  }, 10_000);

  it('replaces a process due for recycling only once the conversions queued at it are done', async () => {
    const logger = recordingLogger();
    const pool = await OfficePool.start(
      { ...fake, processes: 1, queueDepth: 2, maxConversionsPerProcess: 2 },
      logger,
    );
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          pool.convert({ docx: doc('sleep 0.05'), field: `documents[${i}]` }),
        ),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      // Not one attempt failed: no process was taken away from a conversion queued at it.
      expect(logger.warnings).toEqual([]);
      expect(pool.stats().conversions).toBe(6);
      expect(pool.stats().restarts).toBe(2);
    } finally {
      await pool.close();
    }
  });
});
