import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TagInput } from '../../src/document/values/index.js';
import { projectRoot } from '../../src/base/paths/index.js';

/** The sample lease (W1), the library's `templates/lease`: the document most tests render. */
export const lease = readFileSync(join(projectRoot(), 'templates/lease/template.docx'));

/** Its first fixture's values, with which it renders to two pages. */
export const leaseTags = JSON.parse(
  readFileSync(join(projectRoot(), 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
) as TagInput[];
