/**
 * Runs the soak or the cold start alone, outside `npm run bench`:
 * `node dist/bench/soak-main.js soak|cold-start [--quick]` (after `npm run build`); the figures,
 * series and notes go to stdout as JSON, progress to stderr.
 */
import { coldStart } from './cold-start.js';
import { soak } from './soak.js';

const [what, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
const root = process.cwd();
const run = what === 'cold-start' ? coldStart : what === 'soak' ? soak : undefined;
if (!run) {
  process.stderr.write('usage: node dist/bench/soak-main.js soak|cold-start [--quick]\n');
  process.exit(2);
}
const result = await run(root, quick);
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
