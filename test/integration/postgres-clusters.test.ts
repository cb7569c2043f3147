import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  CLUSTER_OWNER_FILE,
  EmbeddedPostgres,
  openDatabase,
  serverUser,
  type EmbeddedCluster,
} from '../../src/platform/postgres/index.js';
import { docpipe, docpipeEnv, StartedDocpipe } from '../helpers/docpipe-start.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The clusters `docpipe start` as root keeps outside a data folder the postgres user cannot
 * reach (issue 31): the start says where, each cluster names its data folder, and `docpipe
 * postgres clean` removes those whose data folder is gone, never one in use or running. The
 * clusters folder is one of the test's own (DOCPIPE_POSTGRES_CLUSTERS_DIR): the machine's
 * /var/lib/docpipe is never touched.
 */

const asRoot = process.getuid?.() === 0;

/** A clusters folder of the test's own, which the postgres user may pass through. */
function clustersFolder(): string {
  const dir = testDir('docpipe-clusters-');
  chmodSync(dir, 0o755);
  return join(dir, 'postgres');
}

/** A data folder under a folder that shuts the postgres user out (mode 0700, as /root is). */
function shutOutDataFolder(): string {
  return join(testDir('docpipe-shut-'), 'data');
}

interface Listed {
  clustersDir: string;
  clusters: EmbeddedCluster[];
}

describe.runIf(asRoot)('docpipe postgres clusters and clean', () => {
  it('removes the clusters whose data folder is gone, and none that runs or whose data folder exists', async () => {
    const clustersDir = clustersFolder();
    const env = (data: string) => docpipeEnv(data, { DOCPIPE_POSTGRES_CLUSTERS_DIR: clustersDir });

    // Gone: `docpipe start` made it, said where it is, and its data folder was removed after.
    const gone = shutOutDataFolder();
    const start = new StartedDocpipe(env(gone));
    onTestFinished(() => start.killAll());
    await start.waitFor('docpipe started');
    const moved = start.lines().find((l) => l.msg.includes('shuts out'));
    expect(moved?.msg).toContain(`its cluster lives in ${clustersDir}/`);
    expect(moved?.msg).toContain('"docpipe postgres clean" removes the clusters');
    const goneCluster = String(moved!.dir);
    const record = join(goneCluster, CLUSTER_OWNER_FILE);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({ dataFolder: gone });
    expect(statSync(record).uid).toBe((await serverUser()).uid);
    start.ctrlC();
    expect(await start.exited).toBe(0);
    rmSync(gone, { recursive: true, force: true });

    // In use: stopped, its data folder still there.
    const kept = shutOutDataFolder();
    const keptServer = await EmbeddedPostgres.start({ dir: join(kept, 'postgres'), clustersDir });
    await keptServer.stop();
    // Running: its data folder gone, its server still up.
    const running = shutOutDataFolder();
    const runningServer = await EmbeddedPostgres.start({
      dir: join(running, 'postgres'),
      clustersDir,
    });
    onTestFinished(() => runningServer.stop());
    rmSync(running, { recursive: true, force: true });
    // Unrecorded: a cluster an earlier docpipe made, which names no data folder.
    const unrecorded = join(clustersDir, '00000000000000ff');
    mkdirSync(unrecorded, { mode: 0o700 });
    writeFileSync(join(unrecorded, 'PG_VERSION'), '15\n');

    const listed = docpipe(env(kept), 'postgres', 'clusters', '--json');
    expect(listed.status, listed.stderr).toBe(0);
    const { clusters } = JSON.parse(listed.stdout) as Listed;
    const stateOf = (dir: string) => clusters.find((c) => c.dir === dir)?.state;
    expect(clusters).toHaveLength(4);
    expect(stateOf(goneCluster)).toBe('orphaned');
    expect(stateOf(keptServer.dir)).toBe('in-use');
    expect(stateOf(runningServer.dir)).toBe('running');
    expect(stateOf(unrecorded)).toBe('unrecorded');
    expect(clusters.find((c) => c.dir === goneCluster)!.bytes).toBeGreaterThan(1_000_000);

    const dry = docpipe(env(kept), 'postgres', 'clean', '--dry-run');
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would remove ${goneCluster} (its data folder ${gone} is gone`);
    expect(dry.stdout).toContain('1 cluster would be removed');
    expect(existsSync(goneCluster)).toBe(true);

    const cleaned = docpipe(env(kept), 'postgres', 'clean', '--json');
    expect(cleaned.status, cleaned.stderr).toBe(0);
    const outcome = JSON.parse(cleaned.stdout) as {
      removed: EmbeddedCluster[];
      kept: EmbeddedCluster[];
      failed: unknown[];
    };
    expect(outcome.removed.map((c) => c.dir)).toEqual([goneCluster]);
    expect(outcome.kept.map((c) => c.state).sort()).toEqual(['in-use', 'running', 'unrecorded']);
    expect(outcome.failed).toEqual([]);
    expect(existsSync(goneCluster)).toBe(false);
    expect(existsSync(join(keptServer.dir, 'PG_VERSION'))).toBe(true);
    // The running server still answers.
    const db = openDatabase(runningServer.url);
    onTestFinished(() => db.destroy());
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);

    const all = docpipe(env(kept), 'postgres', 'clean', '--unrecorded');
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toContain(`removed ${unrecorded} (it names no data folder`);
    expect(existsSync(unrecorded)).toBe(false);
    expect(existsSync(runningServer.dir)).toBe(true);
    expect(existsSync(keptServer.dir)).toBe(true);
  }, 240_000);

  it('says so when there are no clusters', () => {
    const clustersDir = clustersFolder();
    const r = docpipe(
      docpipeEnv(testDir('docpipe-data-'), { DOCPIPE_POSTGRES_CLUSTERS_DIR: clustersDir }),
      'postgres',
      'clean',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`no clusters in ${clustersDir}\n`);
  });
});
