import { basename, extname, resolve } from 'node:path';
import { loadConfig } from '../../../app/config/index.js';
import { type DocumentInput, type JobRenderOptions } from '../../../jobs/queue/index.js';
import { isQueueUnavailableError, requireRedisUrl } from '../../../platform/redis/index.js';
import { UsageError } from '../exit-codes.js';
import { companyFlag } from '../company-flag.js';
import { printJson } from '../print-json.js';
import { templateFlagsFrom, type TemplateFlags } from '../io.js';
import { InputError, readJson, writeAtomically } from '../../../base/files/index.js';
import { isDocpipeError } from '../../../base/errors/index.js';
import {
  DocumentJsonError,
  resolveTemplate,
  type ResolvedTemplate,
} from '../../../document/library/index.js';
import { runDocumentCommand } from '../report-failure.js';
import { connectClient, openStorage } from '../../../app/parts/index.js';
import { objectLocation } from '../../../render/storage/index.js';

export interface EnqueueFlags extends TemplateFlags {
  tags?: string;
  name?: string;
  library?: string;
  out?: string;
  json?: boolean;
  timeout: string;
  company?: string;
  pdfa?: boolean;
}

/** `docpipe enqueue`, declared in commands/enqueue.ts, which loads this module only when it runs. */
export async function runEnqueue(input: string | undefined, flags: EnqueueFlags): Promise<void> {
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
}
