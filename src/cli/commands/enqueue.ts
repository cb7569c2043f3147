import { basename, extname } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import type { DocumentInput } from '../../queue/index.js';
import { UsageError } from '../exit-codes.js';
import { printJson, readInput, readJson } from '../io.js';
import { runDocumentCommand } from '../report-failure.js';
import { connectClient, resolveRedisUrl } from '../runtime.js';

interface EnqueueFlags {
  tags?: string;
  name?: string;
  library?: string;
  json?: boolean;
  timeout: string;
  pdfa?: boolean;
}

export function registerEnqueue(program: Command): void {
  program
    .command('enqueue')
    .description('send one document through the queue to a running docpipe and wait for its result')
    .argument('[input]', 'a .docx or PDF to render (or use --library)')
    .option('-t, --tags <file>', 'JSON file: an array of {tag, value, type, format}')
    .option('--library <id[@version]>', 'render a library document instead of a file')
    .option('--name <name>', 'document name (default: the file name or library id)')
    .option('--pdfa', 'PDF/A-2b output')
    .option('--timeout <ms>', 'how long to wait for the result', '120000')
    .option('--json', 'print the result, or the typed failure {error, details}, as JSON')
    .addHelpText(
      'after',
      '\nUses REDIS_URL, or the Redis of a running "docpipe start".\nExit status: 0 rendered, 1 typed failure, 2 bad usage or no Redis.',
    )
    .action(async (input: string | undefined, flags: EnqueueFlags) => {
      if (!input === !flags.library)
        throw new UsageError('give a file or --library <id>, not both and not neither');
      const config = loadConfig();
      const redisUrl = await resolveRedisUrl(config);
      if (!redisUrl) throw new UsageError('no Redis: set REDIS_URL, or run "docpipe start" first');
      const tags = flags.tags ? ((await readJson(flags.tags)) as DocumentInput['tags']) : undefined;
      const options = flags.pdfa ? { pdfa: true } : undefined;
      let document: DocumentInput;
      if (flags.library) {
        const [documentId, versionId] = flags.library.split('@');
        document = {
          name: flags.name ?? documentId!,
          documentId: documentId!,
          versionId,
          tags,
          options,
        };
      } else {
        document = {
          name: flags.name ?? basename(input!, extname(input!)),
          content: await readInput(input!),
          tags,
          options,
        };
      }
      const client = await connectClient(config, redisUrl).catch((err: Error) => {
        throw new UsageError(err.message);
      });
      try {
        await runDocumentCommand(flags.json, async () => {
          const result = await client.render(document, { timeoutMs: Number(flags.timeout) });
          if (flags.json) printJson(result);
          else if (result.kind === 'url')
            process.stdout.write(`${result.field}: kept by reference: ${result.url}\n`);
          else {
            const r = result.result;
            process.stdout.write(
              `${result.field}: ${r.pages} pages, ${r.bytes} bytes${r.cached ? ', from cache' : ''}: ${config.dataDir}/storage/${r.key}\n`,
            );
          }
        });
      } finally {
        await client.close();
      }
    });
}
