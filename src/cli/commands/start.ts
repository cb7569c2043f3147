import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { createLogger } from '../../log/index.js';
import { UsageError } from '../exit-codes.js';
import { resolveRedisUrl, startRuntime } from '../runtime.js';

/** Stop on SIGTERM or SIGINT: no new jobs, active ones get the grace period, then everything closes. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => resolve(signal);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

export function registerStart(program: Command): void {
  program
    .command('start')
    .description(
      'run docpipe on embedded defaults: a worker with the warm office pool, local storage and, without REDIS_URL, its own redis-server',
    )
    .option('--grace <ms>', 'on SIGTERM or SIGINT, how long active jobs may finish', '30000')
    .addHelpText(
      'after',
      '\nData (Redis append-only file, stored PDFs) lives under DOCPIPE_DATA_DIR (default ./data).\n' +
        'From a second terminal, while it runs:\n' +
        '  npx docpipe enqueue templates/lease/template.docx --tags templates/lease/fixtures/basic.tags.json --json',
    )
    .action(async (flags: { grace: string }) => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      const runtime = await startRuntime(config, logger);
      logger.info(
        { redisUrl: runtime.redisUrl, dataDir: config.dataDir },
        'docpipe started; stop with Ctrl-C',
      );
      const signal = await untilSignal();
      logger.info({ signal }, 'stopping: no new jobs, active ones may finish');
      await runtime.close(Number(flags.grace));
      logger.info({}, 'stopped');
    });

  program
    .command('worker')
    .description(
      'run a worker on a shared Redis (REDIS_URL, or the one a running "docpipe start" uses); run several to share the work',
    )
    .option('--grace <ms>', 'on SIGTERM or SIGINT, how long active jobs may finish', '30000')
    .action(async (flags: { grace: string }) => {
      const config = loadConfig();
      const redisUrl = await resolveRedisUrl(config);
      if (!redisUrl)
        throw new UsageError(
          'no Redis: set REDIS_URL, or run "docpipe start" first (it starts an embedded one)',
        );
      const logger = createLogger(config.logLevel);
      const runtime = await startRuntime({ ...config, redisUrl }, logger);
      const signal = await untilSignal();
      logger.info({ signal }, 'stopping: no new jobs, active ones may finish');
      await runtime.close(Number(flags.grace));
    });
}
