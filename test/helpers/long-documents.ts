import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir } from './corpus.js';
import { firstBlocks } from './docx-cut.js';

/** The corpus's longest document: 180 pages, ten to twenty seconds of work on two cores. */
export const LONG_PAGES = 180;
export const longDocx = (): Buffer => readFileSync(join(corpusDir(), 'docx/poi__bug65649.docx'));

/**
 * Its first 53 pages (up to its third long table): one to three seconds of work, as sure to be
 * caught in flight, and a retry that converts it all again takes a third of the time.
 */
export const MEDIUM_PAGES = 53;
let medium: Buffer | undefined;
/** Cut once for the file: the 12 MB document.xml takes most of a second to cut and pack. */
export const mediumDocx = (): Buffer => (medium ??= firstBlocks(longDocx(), 334));
