/**
 * TypeBox schemas' findings as the spec's problems (every one at its path). A folder of its own,
 * not base/errors: that barrel is loaded by every command, and TypeBox by few (`docpipe --help`
 * and `sniff` load no heavy package: test/integration/cli-startup.test.ts).
 */
export { schemaChecker } from './schema-problems.js';
