import { loadConfig } from '../../../app/config/index.js';
import {
  cleanClusters as clean,
  listClusters,
  type EmbeddedCluster,
} from '../../../platform/postgres/index.js';
import { EXIT } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { byteSize as size, textTable } from './text-table.js';

/** `docpipe postgres clusters`, declared in commands/postgres.ts. */
export async function showClusters(flags: { json?: boolean }): Promise<void> {
  const { postgresClustersDir: clustersDir } = loadConfig();
  const clusters = await listClusters(clustersDir);
  if (flags.json) {
    printJson({ clustersDir, clusters });
    return;
  }
  if (clusters.length === 0) {
    process.stdout.write(`no clusters in ${clustersDir}\n`);
    return;
  }
  process.stdout.write(
    textTable(
      ['STATE', 'SIZE', 'CLUSTER', 'DATA FOLDER'],
      clusters.map((c) => [c.state, size(c.bytes), c.dir, c.dataFolder ?? '-']),
    ),
  );
  const orphaned = clusters.filter((c) => c.state === 'orphaned');
  process.stdout.write(
    `${plural(clusters.length, 'cluster')}, ${orphaned.length} orphaned` +
      (orphaned.length > 0
        ? ` (${size(total(orphaned))}): remove them with "docpipe postgres clean"`
        : '') +
      '\n',
  );
}

/** `docpipe postgres clean`, declared in commands/postgres.ts. */
export async function cleanClusters(flags: {
  dryRun?: boolean;
  unrecorded?: boolean;
  json?: boolean;
}): Promise<void> {
  const { postgresClustersDir: clustersDir } = loadConfig();
  const dryRun = flags.dryRun ?? false;
  const outcome = await clean(clustersDir, { dryRun, unrecorded: flags.unrecorded ?? false });
  process.exitCode = outcome.failed.length > 0 ? EXIT.failed : EXIT.ok;
  if (flags.json) {
    printJson({ clustersDir, dryRun, ...outcome });
    return;
  }
  const lines: string[] = [];
  for (const c of outcome.removed)
    lines.push(`${dryRun ? 'would remove' : 'removed'} ${c.dir} (${why(c)}, ${size(c.bytes)})`);
  for (const c of outcome.kept) lines.push(`kept ${c.dir} (${why(c)})`);
  for (const f of outcome.failed)
    lines.push(`could not remove ${f.cluster.dir} (${why(f.cluster)}): ${f.error}`);
  const freed = total(outcome.removed);
  lines.push(
    outcome.removed.length + outcome.kept.length + outcome.failed.length === 0
      ? `no clusters in ${clustersDir}`
      : `${plural(outcome.removed.length, 'cluster')} ${dryRun ? 'would be removed' : 'removed'}` +
          `${outcome.removed.length > 0 ? ` (${size(freed)} ${dryRun ? 'to free' : 'freed'})` : ''}, ` +
          `${outcome.kept.length} kept` +
          (outcome.failed.length > 0 ? `, ${outcome.failed.length} could not be removed` : ''),
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Why a cluster goes or stays, in words. */
function why(c: EmbeddedCluster): string {
  switch (c.state) {
    case 'orphaned':
      return `its data folder ${c.dataFolder} is gone`;
    case 'in-use':
      return `its data folder ${c.dataFolder} exists`;
    case 'running':
      return `its server runs, pid ${c.pid}`;
    case 'unrecorded':
      return 'it names no data folder; --unrecorded removes it';
  }
}

function total(clusters: readonly EmbeddedCluster[]): number {
  return clusters.reduce((sum, c) => sum + c.bytes, 0);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
