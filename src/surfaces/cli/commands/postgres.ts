import type { Command } from 'commander';

const CLUSTERS_HELP =
  '\nAs root, "docpipe start" runs its PostgreSQL as the postgres user; when that user cannot reach\n' +
  'the data folder (a folder above it, such as /root, shuts it out), the cluster lives in\n' +
  'DOCPIPE_POSTGRES_CLUSTERS_DIR (/var/lib/docpipe/postgres)/<hash of the data folder>, linked from\n' +
  'DOCPIPE_DATA_DIR/postgres, and names its data folder in docpipe-data-folder.json. Removing the\n' +
  'data folder leaves the cluster behind. States: running (its server runs), in-use (its data folder\n' +
  'exists), orphaned (its data folder is gone), unrecorded (made by a docpipe before the record:\n' +
  'whether its data folder exists cannot be told; its next "docpipe start" records it).';

export function registerPostgres(program: Command): void {
  const postgres = program
    .command('postgres')
    .description("the embedded PostgreSQL's clusters kept outside their data folder: list, clean")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe postgres clusters\n' +
        '  docpipe postgres clean --dry-run\n' +
        '  docpipe postgres clean\n' +
        CLUSTERS_HELP,
    );

  postgres
    .command('clusters')
    .description('list the clusters, their data folder, state and size; changes nothing')
    .option('--json', 'print {clustersDir, clusters: [{dir, dataFolder, state, pid, bytes}]}')
    .addHelpText('after', CLUSTERS_HELP + '\n\nExit status: 0 listed, 2 bad usage.')
    .action(async (flags: { json?: boolean }) =>
      (await import('../actions/postgres.js')).showClusters(flags),
    );

  postgres
    .command('clean')
    .description('remove the clusters whose data folder is gone')
    .option('--dry-run', 'list what would be removed; remove nothing')
    .option('--unrecorded', 'remove unrecorded clusters too (their server not running)')
    .option('--json', 'print {clustersDir, dryRun, removed: [...], kept: [...], failed: [...]}')
    .addHelpText(
      'after',
      '\nNever removes a cluster whose server runs or whose data folder exists. A cluster is looked\n' +
        'at again just before it goes. --unrecorded also removes clusters that name no data folder:\n' +
        'run every data folder you keep once with "docpipe start" first, which records it.\n' +
        CLUSTERS_HELP +
        '\n\nExit status: 0 done (also when there was nothing to remove), 1 a cluster could not be\n' +
        'removed (listed), 2 bad usage.',
    )
    .action(async (flags: { dryRun?: boolean; unrecorded?: boolean; json?: boolean }) =>
      (await import('../actions/postgres.js')).cleanClusters(flags),
    );
}
