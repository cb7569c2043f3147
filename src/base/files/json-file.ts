import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { readWholeInput } from './bounded-read.js';
import { InputError } from './input-error.js';

/** Values files are small; this bounds what a mistaken path (a device, a huge file) can cost. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;

/** Parses a JSON file, refusing one nested past MAX_JSON_DEPTH before anything walks it. */
export async function readJson(path: string): Promise<unknown> {
  const text = (await readWholeInput(path, MAX_JSON_BYTES)).toString('utf8');
  return parseJson(text, path);
}

/** JSON text from `where` (a file, a manifest line), parsed and bounded in depth. */
export function parseJson(text: string, where: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${where} is not valid JSON: ${(err as Error).message}`);
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH))
    throw new InputError(
      `${where} nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; tag values are a flat list of {tag, value, type, format}`,
    );
  return value;
}
