export { InputError, errorWords } from './input-error.js';
export { readInput, readWholeInput, TooLargeInput } from './bounded-read.js';
export { parseJson, readJson } from './json-file.js';
export {
  ORDINARY_MODES,
  PARTIAL_SUFFIX,
  PRIVATE_MODES,
  copyFileAtomically,
  replaceFile,
  replaceFileSync,
  writeAtomically,
  type FileModes,
} from './write-atomically.js';
export { makeTreePrivate, mkdirPrivate } from './private-tree.js';
export { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
export { jsonTextPasses, textNestsDeeperThan, type JsonTextBounds } from './json-text-depth.js';
