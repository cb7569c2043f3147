import { access, readdir } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';

/** Where Debian's packages put each major version's server programs: /usr/lib/postgresql/<v>/bin. */
export const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';

export interface PostgresBinaries {
  /** The major version, e.g. 15. */
  version: number;
  initdb: string;
  postgres: string;
}

/**
 * The newest PostgreSQL server installed from Debian's packages, found by version rather than
 * named (bookworm ships 15, trixie 17), or the one in `binDir` when given. A data folder made by
 * one major version runs only on that version: PG_VERSION in the folder says which, and
 * `forVersion` asks for it.
 */
export async function findPostgresBinaries(
  options: { binDir?: string; forVersion?: number; root?: string } = {},
): Promise<PostgresBinaries> {
  if (options.binDir) return binariesIn(options.binDir, options.forVersion ?? 0);
  const root = options.root ?? DEBIAN_POSTGRES_ROOT;
  const versions = (await readdir(root).catch(() => [] as string[]))
    .map(Number)
    .filter((v) => Number.isInteger(v) && v > 0)
    .sort((a, b) => b - a);
  const wanted =
    options.forVersion === undefined ? versions : versions.filter((v) => v === options.forVersion);
  for (const version of wanted) {
    const found = await binariesIn(join(root, String(version), 'bin'), version).catch(
      () => undefined,
    );
    if (found) return found;
  }
  throw new Error(
    options.forVersion !== undefined && versions.length > 0
      ? `the embedded PostgreSQL's data folder was made by PostgreSQL ${options.forVersion}, and ` +
          `only ${versions.join(', ')} is installed under ${root}: install postgresql-${options.forVersion}, ` +
          'or upgrade the folder (pg_upgrade), or move it aside to start afresh'
      : `no PostgreSQL server found under ${root} (Debian's postgresql package puts it there): ` +
          'run scripts/setup.sh (apt-get install postgresql), or set DATABASE_URL to a PostgreSQL of your own',
  );
}

async function binariesIn(binDir: string, version: number): Promise<PostgresBinaries> {
  const initdb = join(binDir, 'initdb');
  const postgres = join(binDir, 'postgres');
  for (const file of [initdb, postgres]) await access(file, constants.X_OK);
  return { version, initdb, postgres };
}
