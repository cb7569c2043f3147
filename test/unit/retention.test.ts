import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  GroupCollector,
  RECENT_GRACE_MS,
  classifyKey,
  groupKeys,
  isExpired,
  sweep,
  type SweepReport,
} from '../../src/jobs/retention/index.js';
import { LocalStorage, storedDocumentKey, type Storage } from '../../src/render/storage/index.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Retention's decisions without Redis: what each stored key is, when a group is past its age
 * (with an injected clock), and a sweep on local disk with a stand-in Redis that grants the lock
 * and fails any read of the queued jobs.
 */

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T12:00:00Z');
const SHA = 'a'.repeat(64);
const HASH = `ab${'c'.repeat(62)}`;
const UPLOAD = storedDocumentKey('acme', SHA, 'pdf');
const RENDER = `renders/ab/${HASH}.pdf`;
const JOB_INPUT = `uploads/${SHA}.bin`;
const AGES = { uploadsMs: 30 * DAY, rendersMs: 7 * DAY };

describe('classifyKey', () => {
  it.each([
    [UPLOAD, 'uploads', UPLOAD],
    [`${UPLOAD}.meta.json`, 'uploads', UPLOAD],
    [
      storedDocumentKey('Acme_Co.2', SHA, 'docx'),
      'uploads',
      storedDocumentKey('Acme_Co.2', SHA, 'docx'),
    ],
    [JOB_INPUT, 'job-inputs', JOB_INPUT],
    [RENDER, 'renders', RENDER],
    [`renders/ab/${HASH}.kept`, 'renders', RENDER],
  ])('%s is %s, in the group of %s', (key, kind, group) => {
    expect(classifyKey(key)).toEqual({ kind, group });
  });

  it.each([
    // A render in a folder that is not its hash's first two characters: not a key docpipe made.
    [`renders/cd/${HASH}.pdf`],
    [`renders/ab/${HASH}.docx`],
    [`renders/ab/${HASH.slice(1)}.pdf`],
    // A company id whose hex is not UTF-8.
    [`companies/ff/uploads/${SHA}.pdf`],
    [`companies/61636d65/uploads/${SHA}.bin`],
    [`${JOB_INPUT}.meta.json`],
    [`uploads/${SHA}.pdf`],
    ['health/0b1c.probe'],
    ['notes.txt'],
  ])('%s is other, never removed', (key) => {
    expect(classifyKey(key)).toEqual({ kind: 'other', group: key });
  });

  it('a group names every key it may have, the named object first', () => {
    expect(groupKeys('uploads', UPLOAD)).toEqual([UPLOAD, `${UPLOAD}.meta.json`]);
    expect(groupKeys('renders', RENDER)).toEqual([
      RENDER,
      `renders/ab/${HASH}.kept`,
      `renders/ab/${HASH}.places.json`,
    ]);
    expect(groupKeys('job-inputs', JOB_INPUT)).toEqual([JOB_INPUT]);
  });
});

describe('isExpired', () => {
  const at = (ageMs: number) => new Date(NOW - ageMs);

  it('a kind is past its age at exactly its age, not a millisecond before', () => {
    expect(isExpired('uploads', at(30 * DAY - 1), AGES, NOW)).toBe(false);
    expect(isExpired('uploads', at(30 * DAY), AGES, NOW)).toBe(true);
    expect(isExpired('job-inputs', at(30 * DAY), AGES, NOW)).toBe(true);
    expect(isExpired('renders', at(7 * DAY - 1), AGES, NOW)).toBe(false);
    expect(isExpired('renders', at(7 * DAY), AGES, NOW)).toBe(true);
  });

  it('a kind whose age is off, and other objects, are never past it', () => {
    expect(isExpired('renders', at(3650 * DAY), { ...AGES, rendersMs: undefined }, NOW)).toBe(
      false,
    );
    expect(isExpired('uploads', at(3650 * DAY), { ...AGES, uploadsMs: undefined }, NOW)).toBe(
      false,
    );
    expect(isExpired('other', at(3650 * DAY), AGES, NOW)).toBe(false);
  });

  it('nothing written within the grace margin is past its age, however short the age', () => {
    const short = { uploadsMs: 60_000, rendersMs: 60_000 };
    expect(isExpired('uploads', at(RECENT_GRACE_MS - 1), short, NOW)).toBe(false);
    expect(isExpired('uploads', at(RECENT_GRACE_MS), short, NOW)).toBe(true);
  });
});

describe('GroupCollector', () => {
  it('ages a group by its newest member and counts all of their bytes', () => {
    const collector = new GroupCollector();
    const old = new Date(NOW - 40 * DAY);
    const recent = new Date(NOW - DAY);
    collector.add({ key: `renders/ab/${HASH}.kept`, bytes: 0, type: 'x', modified: recent });
    collector.add({ key: 'health/x.probe', bytes: 5, type: 'x', modified: old });
    collector.add({ key: RENDER, bytes: 1000, type: 'application/pdf', modified: old });
    const groups = collector.all();
    expect(groups).toHaveLength(2);
    const render = groups.find((g) => g.kind === 'renders')!;
    expect(render).toMatchObject({ name: RENDER, bytes: 1000, modified: recent });
    expect(render.members.map((m) => m.key).sort()).toEqual([`renders/ab/${HASH}.kept`, RENDER]);
  });
});

/** Grants the lock and fails every read of the queued jobs (a SCAN that Redis refuses). */
function lockOnlyRedis(): Redis {
  const fake = {
    set: () => Promise.resolve('OK'),
    eval: () => Promise.resolve(1),
    get: () => Promise.resolve(null),
    scan: () => Promise.reject(new Error('ERR scan refused')),
  };
  return fake as unknown as Redis;
}

/** Local storage holding an old upload (with its sidecar), job input and render (with marker). */
async function oldObjects(): Promise<{ dir: string; storage: LocalStorage }> {
  const dir = testDir('retention-unit-');
  const storage = new LocalStorage(dir);
  const put = (key: string, bytes: number) =>
    storage.put(key, Buffer.alloc(bytes, 1), 'application/octet-stream');
  await put(UPLOAD, 100);
  await put(`${UPLOAD}.meta.json`, 10);
  await put(JOB_INPUT, 200);
  await put(RENDER, 1000);
  await put(`renders/ab/${HASH}.kept`, 0);
  await put('health/x.probe', 5);
  const old = new Date(NOW - 365 * DAY);
  for (const key of [UPLOAD, `${UPLOAD}.meta.json`, JOB_INPUT, RENDER, `renders/ab/${HASH}.kept`])
    utimesSync(join(dir, key), old, old);
  return { dir, storage };
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** The storage with some calls replaced; the listing stays the storage's own. */
function wrapped(storage: Storage, overrides: Partial<Storage>): Storage {
  return {
    put: (key, data, type) => storage.put(key, data, type),
    get: (key) => storage.get(key),
    stat: (key) => storage.stat(key),
    delete: (key) => storage.delete(key),
    copy: (from, to) => storage.copy(from, to),
    touch: (key) => storage.touch(key),
    list: (prefix) => storage.list(prefix),
    ...overrides,
  };
}

function sweepOn(storage: Storage, dryRun = false): Promise<SweepReport> {
  return sweep({
    storage,
    redis: lockOnlyRedis(),
    prefix: 'unit',
    ages: AGES,
    dryRun,
    now: () => NOW,
  }) as Promise<SweepReport>;
}

describe('sweep on local disk', () => {
  it('a dry run removes nothing and reports the render it would remove', async () => {
    const { dir, storage } = await oldObjects();
    const before = files(dir);
    expect(before).toHaveLength(6);
    const report = await sweepOn(storage, true);
    expect(files(dir)).toEqual(before);
    expect(report).toMatchObject({ swept: true, dryRun: true, listed: 5 });
    expect(report.removed).toEqual({
      uploads: { objects: 0, bytes: 0 },
      'job-inputs': { objects: 0, bytes: 0 },
      renders: { objects: 2, bytes: 1000 },
    });
  });

  it('when the queued jobs cannot be read, renders go and every upload and job input stays', async () => {
    const { dir, storage } = await oldObjects();
    const report = await sweepOn(storage);
    expect(report.uploadsSkipped).toMatch(/queued jobs could not be read.*ERR scan refused/);
    expect(report.removed.renders).toEqual({ objects: 2, bytes: 1000 });
    expect(report.removed.uploads).toEqual({ objects: 0, bytes: 0 });
    expect(report.removed['job-inputs']).toEqual({ objects: 0, bytes: 0 });
    expect(files(dir)).toEqual(['health/x.probe', JOB_INPUT, UPLOAD, `${UPLOAD}.meta.json`].sort());
  });

  it('a render used again between the listing and its removal stays', async () => {
    const { dir, storage } = await oldObjects();
    // The first stat of the render (just before its removal) comes after a reuse wrote its marker.
    let reused = false;
    const reusing = wrapped(storage, {
      async stat(key: string) {
        if (key === RENDER && !reused) {
          reused = true;
          await storage.put(`renders/ab/${HASH}.kept`, Buffer.alloc(0), 'application/octet-stream');
        }
        return storage.stat(key);
      },
    });
    const report = await sweep({
      storage: reusing,
      redis: lockOnlyRedis(),
      prefix: 'unit',
      ages: AGES,
      // Now: ages count from the marker written now, as they would in production.
    });
    expect(reused).toBe(true);
    expect(report).toMatchObject({ swept: true, kept: { forJobs: 0, reused: 1 } });
    expect((report as SweepReport).removed.renders).toEqual({ objects: 0, bytes: 0 });
    expect(files(dir)).toContain(RENDER);
  });

  it('a delete that fails is reported and the sweep goes on with the next group', async () => {
    const { dir, storage } = await oldObjects();
    const second = `renders/cd/cd${'e'.repeat(62)}.pdf`;
    await storage.put(second, Buffer.alloc(300), 'application/pdf');
    const old = new Date(NOW - 365 * DAY);
    utimesSync(join(dir, second), old, old);
    const failing = wrapped(storage, {
      delete(key: string) {
        if (key === RENDER) return Promise.reject(new Error('EACCES: permission denied'));
        return storage.delete(key);
      },
    });
    const report = await sweepOn(failing);
    expect(report.failures).toEqual([{ key: RENDER, message: 'EACCES: permission denied' }]);
    // The failed render keeps its marker (the group stays whole); the other render is gone.
    expect(report.removed.renders).toEqual({ objects: 1, bytes: 300 });
    expect(files(dir)).toContain(RENDER);
    expect(files(dir)).toContain(`renders/ab/${HASH}.kept`);
    expect(files(dir)).not.toContain(second);
  });
});
