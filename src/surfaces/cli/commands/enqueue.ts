import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../../app/config/index.js';
import { type DocumentInput, type JobRenderOptions } from '../../../jobs/queue/index.js';
import { isQueueUnavailableError } from '../../../platform/redis/index.js';
import { UsageError } from '../exit-codes.js';
import { companyFlag, printJson, templateFlagsFrom, type TemplateFlags } from '../io.js';
import { InputError, readJson, writeAtomically } from '../../../base/files/index.js';
import { isDocpipeError } from '../../../base/errors/index.js';
import {
  DocumentJsonError,
  resolveTemplate,
  type ResolvedTemplate,
} from '../../../document/library/index.js';
import { runDocumentCommand } from '../report-failure.js';
import { connectClient, openStorage } from '../../../app/wiring/index.js';
import { requireRedisUrl } from '../../../platform/redis/index.js';
import { objectLocation } from '../../../render/storage/index.js';

interface EnqueueFlags extends TemplateFlags {
  tags?: string;
  name?: string;
  library?: string;
  out?: string;
  json?: boolean;
  timeout: string;
  company?: string;
  pdfa?: boolean;
}

export function registerEnqueue(program: Command): void {
  program
    .command('enqueue')
    .description('send one document through the queue to a running docpipe and wait for its result')
    .argument(
      '[input]',
      "a .docx or PDF to render, or a library document's folder (or use --library)",
    )
    .option('-t, --tags <file>', 'JSON file: an array of {tag, value, type, format}')
    .option('--library <id[@version]>', 'render a library document instead of a file')
    .option('-o, --out <file.pdf>', 'also copy the PDF here')
    .option('--name <name>', 'document name (default: the file name or library id)')
    .option('--pdfa', 'PDF/A-2b output')
    .option('--locale <tag>', 'locale for dates, numbers and booleans (da, en, sv, nb, de, ...)')
    .option('--time-zone <zone>', 'IANA time zone for date-times with an offset')
    .option(
      '--delimiters <pair>',
      'tag delimiters, start and end separated by a space, such as "{{ }}"',
    )
    .option(
      '--strict',
      'refuse values for tags the template does not have, and need one for each it shows (library documents always are)',
    )
    .option('--timeout <ms>', 'how long to wait for the result', '120000')
    .option(
      '--company <id>',
      "the company the documents are for: companies' jobs take turns (default: none, one shared line)",
    )
    .option('--json', 'print the result, or the typed failure {error, details}, as JSON')
    .addHelpText(
      'after',
      "\nA template takes its locale, time zone, delimiters and declared fields from its folder's document.json\n" +
        '(a library document from the library\'s), as "docpipe render" does; the flags override them. Every field\n' +
        'a library document shows needs a value.\n' +
        '\nUses REDIS_URL, or the Redis of a running "docpipe start".\n' +
        'Exit status: 0 rendered, 1 typed failure, 2 bad usage (or no Redis set), 3 Redis does not answer or no\n' +
        'worker is running (nothing was queued; try again once one runs).',
    )
    .action(async (input: string | undefined, flags: EnqueueFlags) => {
      if (!input === !flags.library)
        throw new UsageError('give a file or --library <id>, not both and not neither');
      if (flags.out !== undefined && extname(flags.out).toLowerCase() !== '.pdf')
        throw new UsageError('--out must name a .pdf file');
      const config = loadConfig();
      const company = companyFlag(flags.company);
      const tags = flags.tags ? ((await readJson(flags.tags)) as DocumentInput['tags']) : undefined;
      // Only what was asked for: a library document's own document.json gives the rest.
      const options: JobRenderOptions = { ...templateFlagsFrom(flags) };
      if (flags.pdfa) options.pdfa = true;
      const given = Object.keys(options).length > 0 ? options : undefined;
      let document: DocumentInput;
      if (flags.library) {
        const [documentId, versionId] = flags.library.split('@');
        document = {
          name: flags.name ?? documentId!,
          documentId: documentId!,
          versionId,
          tags,
          options: given,
        };
      } else {
        // The template with its folder's document.json, as `render` fills it: the client sends
        // its settings with it, under the flags.
        let template: ResolvedTemplate;
        try {
          template = await resolveTemplate(
            { path: input! },
            { maxBytes: config.limits.maxInputBytes, field: 'documents[0]' },
          );
        } catch (err) {
          if (err instanceof DocumentJsonError) throw new InputError(err.message);
          // Past the size limit: refused here as the worker would refuse it, without carrying
          // it through Redis.
          if (!isDocpipeError(err)) throw err;
          await runDocumentCommand(flags.json, () => Promise.reject(err));
          return;
        }
        document = {
          name: flags.name ?? template.name ?? basename(input!, extname(input!)),
          template,
          tags,
          options: given,
        };
      }
      // The document and values are checked first: a typo is named before any missing Redis.
      const redisUrl = await requireRedisUrl(config);
      const storage = await openStorage(config);
      const client = await connectClient(config, redisUrl, { company }).catch((err: Error) => {
        throw isQueueUnavailableError(err) ? err : new UsageError(err.message);
      });
      try {
        await runDocumentCommand(flags.json, async () => {
          const result = await client.render(document, { timeoutMs: Number(flags.timeout) });
          if (result.kind === 'url') {
            if (flags.json) printJson(result);
            else process.stdout.write(`${result.field}: kept by reference: ${result.url}\n`);
            return;
          }
          const r = result.result;
          const path = objectLocation(storage, r.key);
          const out = flags.out === undefined ? undefined : resolve(flags.out);
          if (out) {
            const pdf = await storage.get(r.key);
            if (!pdf) throw new Error(`the stored PDF ${path} is gone`);
            await writeAtomically(out, pdf);
          }
          if (flags.json) printJson({ ...result, path, ...(out ? { out } : {}) });
          else
            process.stdout.write(
              `${result.field}: ${r.pages} pages, ${r.bytes} bytes${r.cached ? ', from cache' : ''}: ${out ?? path}\n`,
            );
        });
      } finally {
        await client.close();
      }
    });
}
