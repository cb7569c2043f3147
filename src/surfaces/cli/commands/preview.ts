import { basename, dirname, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { createPreparer } from '../../../app/wiring/index.js';
import { ScratchRenderer, shownNotices } from '../../../authoring/check/index.js';
import { loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { readInput, readJson, TooLargeInput } from '../../../base/files/index.js';
import { LIBRARY_TEMPLATE } from '../../../document/library/index.js';
import { commandOffice } from '../command-office.js';
import type { Preparer } from '../../../render/prepare/index.js';
import {
  DEFAULT_PREVIEW_DPI,
  previewTemplate,
  writePageImages,
  type Preview,
  type PreviewDeps,
} from '../../../authoring/preview/index.js';
import { MAX_DPI } from '../../../formats/raster/index.js';
import { UsageError } from '../exit-codes.js';
import { fillOptionsFrom, printJson, templateArgument, type TemplateFlags } from '../io.js';
import { runDocumentCommand } from '../report-failure.js';

interface PreviewFlags extends TemplateFlags {
  tags?: string;
  out?: string;
  dpi: string;
  json?: boolean;
}

export function registerPreview(program: Command): void {
  program
    .command('preview')
    .description(
      'draw the pages of a template as PNG images: filled with --tags, or with every tag shaded in place',
    )
    .argument(
      '<template>',
      'a .docx template, or a template folder (its document.json and template.docx)',
    )
    .option('-t, --tags <file>', 'JSON file: an array of {tag, value, type, format} to fill in')
    .option(
      '-o, --out <folder>',
      'where the page images go (default: <template name>-preview in the current folder)',
    )
    .option('--dpi <n>', `resolution of the images, 1 to ${MAX_DPI}`, String(DEFAULT_PREVIEW_DPI))
    .option(
      '--json',
      'print {pages, files, notices}, or the typed failure {error, details}, as JSON',
    )
    .option('--locale <tag>', 'locale for dates, numbers and booleans (da, en, sv, nb, de, ...)')
    .option('--time-zone <zone>', 'IANA time zone for date-times with an offset')
    .option(
      '--delimiters <pair>',
      'tag delimiters, start and end separated by a space, such as "{{ }}"',
    )
    .option('--strict', 'with --tags: refuse values for tags the template does not have')
    .addHelpText(
      'after',
      '\nWithout --tags nothing is filled: each tag shows as its text on a coloured background,\n' +
        'values yellow, sections ({#flag} ... {/flag}, loops) light blue, inverted sections\n' +
        '({^flag} ... {/flag}) light orange, so both branches of every section can be seen.\n' +
        'The folder gets page-1.png, page-2.png, ...; pages left from a longer earlier preview are removed.\n' +
        "A library folder's document.json sets delimiters, locale, time zone and field types.\n" +
        'Notices of the render (a font replaced by one of other widths, an empty page) go to stderr\n' +
        'as render prints them, a metric-compatible replacement left out (--json lists them all).\n' +
        'Nothing is kept in DOCPIPE_DATA_DIR/storage: each preview renders in a temporary store.\n' +
        '\nExamples:\n' +
        '  docpipe preview templates/lease                     # ./lease-preview/page-1.png ...\n' +
        '  docpipe preview templates/lease --tags templates/lease/fixtures/basic.tags.json --out filled\n' +
        '\nExit status: 0 ok, 1 typed failure (broken template, bad values, conversion failed), 2 bad usage.',
    )
    .action(async (template: string, flags: PreviewFlags) => {
      const dpi = dpiFlag(flags.dpi);
      const { file, options } = await templateArgument(template);
      const name = previewName(template, file);
      const config = loadConfig();
      const { limits, ...fill } = fillOptionsFrom(flags, config, options);
      const [bytes, tags] = await Promise.all([
        readInput(file, config.limits.maxInputBytes),
        flags.tags ? readJson(flags.tags) : Promise.resolve(undefined),
      ]);
      const out = flags.out ?? `${name}-preview`;
      const preparer = createPreparer(config, 1);
      try {
        await runDocumentCommand(flags.json, async () => {
          if (bytes instanceof TooLargeInput) throw bytes.toError('template');
          const preview = await withRenderer(preparer, config, name, (renderPdf) =>
            previewTemplate(bytes, { tags, fill, limits, dpi }, { renderPdf }),
          );
          const files = await writePageImages(out, preview.pages);
          report(preview, files, flags.json);
        });
      } finally {
        await preparer.close();
      }
    });
}

function dpiFlag(text: string): number {
  const dpi = Number(text);
  if (!/^\d+$/.test(text.trim()) || dpi < 1 || dpi > MAX_DPI)
    throw new UsageError(`--dpi must be a whole number from 1 to ${MAX_DPI} (got ${text})`);
  return dpi;
}

/**
 * The name a preview folder takes: a library document's folder name (for the folder, or its
 * template.docx, since every library document's file has that name), else the file's name.
 */
function previewName(argument: string, file: string): string {
  if (file !== argument || basename(file) === LIBRARY_TEMPLATE)
    return basename(resolve(dirname(file)));
  return basename(file, extname(file));
}

/**
 * Renders as `docpipe render` does (one warm office process), over a temporary store removed
 * afterwards: a preview is a look, and leaves no PDF in DOCPIPE_DATA_DIR/storage.
 */
async function withRenderer<T>(
  preparer: Preparer,
  config: DocpipeConfig,
  name: string,
  work: (renderPdf: PreviewDeps['renderPdf']) => Promise<T>,
): Promise<T> {
  const { converter, logger } = await commandOffice(config, { lazy: true });
  try {
    const scratch = await ScratchRenderer.open({ preparer, converter, logger });
    try {
      return await work((bytes, tags, fill) => scratch.render({ bytes, name }, tags, fill));
    } finally {
      await scratch.close();
    }
  } finally {
    await converter.close();
  }
}

function report(preview: Preview, files: string[], json: boolean | undefined): void {
  if (json)
    return printJson({
      pages: files.length,
      files: files.map((f) => resolve(f)),
      notices: preview.notices,
    });
  for (const f of files) process.stdout.write(`${f}\n`);
  for (const notice of shownNotices(preview.notices))
    process.stderr.write(`notice ${notice.code}: ${notice.message}\n`);
  for (const u of preview.marked?.unmarked ?? [])
    process.stderr.write(
      `docpipe: ${u.count > 0 ? `${u.count} tag(s)` : 'tags'} in ${u.file} not shaded: ${u.why}\n`,
    );
}
