export { InputError, errorWords } from './input-error.js';
export { readInput, readWholeInput, TooLargeInput } from './bounded-read.js';
export { parseJson, readJson } from './json-file.js';
export {
  PARTIAL_SUFFIX,
  replaceFile,
  replaceFileSync,
  writeAtomically,
} from './write-atomically.js';
export { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
export { jsonTextPasses, textNestsDeeperThan, type JsonTextBounds } from './json-text-depth.js';
