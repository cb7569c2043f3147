import { describe, expect, it } from 'vitest';
import { TurnTimeout, Turns } from '../../src/render/convert/turns.js';

/** A piece of work that ends when told to, recording when it began. */
function gate(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const work = async () => {
    log.push(`start ${name}`);
    await done;
    log.push(`end ${name}`);
    return name;
  };
  return { work, finish };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('turns (the bound on libreoffice-convert runs at once)', () => {
  it('runs at most the limit at once, the others in order as turns free up', async () => {
    const log: string[] = [];
    const turns = new Turns(2, 10_000);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => gate(log, name));
    const runs = [a, b, c, d].map((g) => turns.run(g!.work));
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    b!.finish();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    a!.finish();
    c!.finish();
    d!.finish();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'd']);
    expect(log.filter((l) => l.startsWith('start'))).toEqual([
      'start a',
      'start b',
      'start c',
      'start d',
    ]);
  });

  it('frees a turn when the work fails', async () => {
    const turns = new Turns(1, 10_000);
    await expect(turns.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await turns.run(() => Promise.resolve('next'))).toBe('next');
  });

  it('fails a wait past its limit with a TurnTimeout, and the turn goes to the next', async () => {
    const log: string[] = [];
    const turns = new Turns(1, 50);
    const a = gate(log, 'a');
    const running = turns.run(a.work);
    const late = turns.run(() => Promise.resolve('late'));
    await expect(late).rejects.toBeInstanceOf(TurnTimeout);
    await expect(late).rejects.toMatchObject({ waitMs: 50 });
    a.finish();
    expect(await running).toBe('a');
    // The timed-out waiter left the line: the next run starts at once.
    expect(await turns.run(() => Promise.resolve('after'))).toBe('after');
  });

  it('fails the waiting and later runs once closed, and lets the running one finish', async () => {
    const log: string[] = [];
    const turns = new Turns(1, 10_000);
    const a = gate(log, 'a');
    const running = turns.run(a.work);
    const waiting = turns.run(() => Promise.resolve('never'));
    turns.close('the engine is closing');
    await expect(waiting).rejects.toThrow('the engine is closing');
    await expect(turns.run(() => Promise.resolve('x'))).rejects.toThrow('the engine is closing');
    a.finish();
    expect(await running).toBe('a');
  });
});
