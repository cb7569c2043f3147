import { DocpipeError } from '../../src/errors/index.js';

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
