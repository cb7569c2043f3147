import { DocpipeError } from '../../src/base/errors/index.js';

/** The DocpipeError a call throws; anything else thrown, or nothing, fails the test. */
export function failure(fn: () => unknown): DocpipeError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DocpipeError) return err;
    throw err;
  }
  throw new Error('expected a DocpipeError');
}

/** What a promise rejects with, when it is an instance of `type`; anything else fails the test. */
export async function rejectionOf<T extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => T,
): Promise<T> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected a rejection with ${type.name}`);
}
