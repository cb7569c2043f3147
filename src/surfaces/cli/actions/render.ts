import { createHash } from 'node:crypto';
import { basename, extname, resolve } from 'node:path';
import { createPreparer, openStorage } from '../../../app/parts/index.js';
import { loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { commandOffice } from '../command-office.js';
import { Renderer } from '../../../render/pipeline/index.js';
import { objectLocation } from '../../../render/storage/index.js';
import type { Preparer } from '../../../render/prepare/index.js';
import { UsageError } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { fillOptionsFrom, templateArgument, type TemplateFlags } from '../io.js';
import { readInput, readJson, TooLargeInput, writeAtomically } from '../../../base/files/index.js';
import { runDocumentCommand } from '../report-failure.js';

export interface RenderFlags extends TemplateFlags {
  tags?: string;
  out: string;
  json?: boolean;
  pdfa?: boolean;
  name?: string;
  strictFidelity?: boolean;
}

/** `docpipe render`, declared in commands/render.ts, which loads this module only when it runs. */
export async function runRender(input: string, flags: RenderFlags): Promise<void> {
  const format = extname(flags.out).toLowerCase();
  if (format !== '.pdf' && format !== '.docx')
    throw new UsageError('--out must name a .pdf or a .docx file');
  const config = loadConfig();
  const template = await templateArgument(input);
  const options = fillOptionsFrom(flags, config, template.options);
  const name = flags.name ?? template.name ?? basename(input, extname(input));
  const [bytes, tags] = await Promise.all([
    readInput(template.file, config.limits.maxInputBytes),
    flags.tags ? readJson(flags.tags) : Promise.resolve([]),
  ]);
  const preparer = createPreparer(config, 1);
  try {
    await runDocumentCommand(flags.json, () => {
      if (bytes instanceof TooLargeInput) throw bytes.toError();
      return format === '.docx'
        ? fillOnly(preparer, bytes, tags, options, flags)
        : renderPdf(preparer, config, bytes, tags, options, name, flags);
    });
  } finally {
    await preparer.close();
  }
}

async function fillOnly(
  preparer: Preparer,
  bytes: Buffer,
  tags: unknown,
  options: ReturnType<typeof fillOptionsFrom>,
  flags: RenderFlags,
): Promise<void> {
  const started = performance.now();
  const { docx, fields } = await preparer.fill(bytes, tags, options);
  await writeAtomically(flags.out, docx);
  const result = {
    out: flags.out,
    type: 'docx',
    bytes: docx.length,
    sha256: createHash('sha256').update(docx).digest('hex'),
    fields: fields.length,
    ms: Math.round(performance.now() - started),
  };
  if (flags.json) printJson(result);
  else
    process.stdout.write(
      `wrote ${result.out} (${result.bytes} bytes, ${result.fields} fields) in ${result.ms} ms\n`,
    );
}

async function renderPdf(
  preparer: Preparer,
  config: DocpipeConfig,
  bytes: Buffer,
  tags: unknown,
  options: ReturnType<typeof fillOptionsFrom>,
  name: string,
  flags: RenderFlags,
): Promise<void> {
  const { converter, logger } = await commandOffice(config, { lazy: true });
  const storage = await openStorage(config);
  try {
    const started = performance.now();
    const renderer = new Renderer({ preparer, converter, storage, logger });
    const { limits: _limits, ...renderOptions } = options;
    const result = await renderer.render({ bytes, name }, tags, {
      ...renderOptions,
      pdfa: flags.pdfa,
      fidelity: flags.strictFidelity || config.strictFidelity ? 'strict' : 'report',
    });
    const pdf = await storage.get(result.key);
    if (!pdf) throw new Error(`the stored PDF ${objectLocation(storage, result.key)} is gone`);
    await writeAtomically(flags.out, pdf);
    const ms = Math.round(performance.now() - started);
    if (flags.json)
      printJson({
        out: resolve(flags.out),
        ...result,
        path: objectLocation(storage, result.key),
        ms,
      });
    else {
      const source = result.cached ? 'from cache' : `from ${result.input}`;
      process.stdout.write(
        `wrote ${flags.out} (${result.pages} pages, ${result.bytes} bytes, ${source}) in ${ms} ms\n`,
      );
      for (const notice of result.notices)
        process.stderr.write(`notice ${notice.code}: ${notice.message}\n`);
    }
  } finally {
    await converter.close();
  }
}
