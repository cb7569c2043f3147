/**
 * Runs one growth part alone and prints its figures, series and notes as JSON:
 * `node dist/bench/growth-main.js pages|cases [--quick]` (after `npm run build`).
 */
import { projectRoot } from '../src/base/paths/index.js';
import { casesGrowth } from './cases-growth.js';
import { growthPages } from './growth-pages.js';

const part = process.argv[2];
const quick = process.argv.includes('--quick');
const run = part === 'cases' ? casesGrowth : part === 'pages' ? growthPages : undefined;
if (!run) {
  console.error('usage: growth-main.js pages|cases [--quick]');
  process.exit(2);
}
const started = performance.now();
const out = await run(projectRoot(), quick);
console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, ...out }, null, 2));
