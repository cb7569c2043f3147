import { resolve } from 'node:path';
import { projectRoot } from '../../base/paths/index.js';
import { safeUrl } from '../../base/util/index.js';
import { ConfigError } from './config-error.js';

/** Where docpipe's PostgreSQL is: DATABASE_URL, or what `docpipe start` wrote in the data folder. */
export interface DatabaseSetting {
  databaseUrl: string | undefined;
  dataDir: string;
}

/**
 * DATABASE_URL and DOCPIPE_DATA_DIR, read as loadConfig reads them. Apart from the rest of the
 * configuration so that the records commands (`docpipe companies list` and the like) find their
 * database without loading the queue, the sealer and the mailer only to check their settings:
 * that halves their start-up. The problems are pushed onto `problems` when given (loadConfig
 * names them all at once), else thrown as a ConfigError.
 */
export function databaseSettingFrom(env: NodeJS.ProcessEnv, problems?: string[]): DatabaseSetting {
  const found: string[] = [];
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    found.push(
      `DATABASE_URL must start with postgresql:// or postgres:// (got "${safeUrl(databaseUrl)}")`,
    );
  if (problems) problems.push(...found);
  else if (found.length > 0) throw new ConfigError(found);
  // The data folder is made at run time: no file of the image (test/integration/docker-layout).
  const root = projectRoot();
  return { databaseUrl, dataDir: resolve(env.DOCPIPE_DATA_DIR || resolve(root, 'data')) };
}
