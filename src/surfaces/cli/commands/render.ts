import { createHash } from 'node:crypto';
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { createPreparer, openStorage } from '../../../app/wiring/index.js';
import { loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { commandOffice } from '../command-office.js';
import { Renderer } from '../../../render/pipeline/index.js';
import { objectLocation } from '../../../render/storage/index.js';
import type { Preparer } from '../../../render/prepare/index.js';
import { UsageError } from '../exit-codes.js';
import { fillOptionsFrom, printJson, templateArgument, type TemplateFlags } from '../io.js';
import { readInput, readJson, TooLargeInput, writeAtomically } from '../../../base/files/index.js';
import { runDocumentCommand } from '../report-failure.js';

interface RenderFlags extends TemplateFlags {
  tags?: string;
  out: string;
  json?: boolean;
  pdfa?: boolean;
  name?: string;
  strictFidelity?: boolean;
}

export function registerRender(program: Command): void {
  program
    .command('render')
    .description(
      'render a document: a .docx template filled with tag values and converted to PDF, or a PDF checked and passed through',
    )
    .argument('<input>', 'a .docx template or document, or a PDF')
    .requiredOption(
      '-o, --out <file>',
      'where to write the result: .pdf (filled and converted) or .docx (filled only)',
    )
    .option('-t, --tags <file>', 'JSON file: an array of {tag, value, type, format}')
    .option('--json', 'print the result, or the typed failure {error, details}, as JSON')
    .option('--name <name>', 'document name, the PDF title (default: the input file name)')
    .option('--pdfa', 'PDF/A-2b output')
    .option('--locale <tag>', 'locale for dates, numbers and booleans (da, en, sv, nb, de, ...)')
    .option('--time-zone <zone>', 'IANA time zone for date-times with an offset')
    .option(
      '--delimiters <pair>',
      'tag delimiters, start and end separated by a space, such as "{{ }}"',
    )
    .option('--strict', 'refuse values for tags the template does not have')
    .option(
      '--strict-fidelity',
      'refuse the render when a font was replaced by one of other widths or a page is empty (default: DOCPIPE_STRICT_FIDELITY)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  docpipe render templates/lease/template.docx --tags templates/lease/fixtures/basic.tags.json --out lease.pdf\n' +
        '  docpipe render contract.pdf --out checked.pdf\n' +
        '\nRendered PDFs are kept under DOCPIPE_DATA_DIR/storage; the same input, values and options are answered\n' +
        'from there without converting again ("cached": true).\n' +
        '\nExit status: 0 ok, 1 typed failure (bad values, broken template, unsupported file, conversion failed), 2 bad usage.',
    )
    .action(async (input: string, flags: RenderFlags) => {
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
    });
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
