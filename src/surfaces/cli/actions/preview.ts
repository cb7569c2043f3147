import { basename, dirname, extname, resolve } from 'node:path';
import { createPreparer } from '../../../app/parts/index.js';
import { ScratchRenderer } from '../../../authoring/check/index.js';
import { noteworthyNotices } from '../../../render/pipeline/index.js';
import { loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { readInput, readJson, TooLargeInput } from '../../../base/files/index.js';
import { LIBRARY_TEMPLATE } from '../../../document/library/index.js';
import { commandOffice } from '../command-office.js';
import type { Preparer } from '../../../render/prepare/index.js';
import {
  previewTemplate,
  writePageImages,
  type Preview,
  type PreviewDeps,
} from '../../../authoring/preview/index.js';
import { MAX_DPI } from '../../../formats/raster/index.js';
import { UsageError } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { fillOptionsFrom, templateArgument, type TemplateFlags } from '../io.js';
import { runDocumentCommand } from '../report-failure.js';

export interface PreviewFlags extends TemplateFlags {
  tags?: string;
  out?: string;
  dpi: string;
  json?: boolean;
}

/** `docpipe preview`, declared in commands/preview.ts, which loads this module only when it runs. */
export async function runPreview(template: string, flags: PreviewFlags): Promise<void> {
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
  for (const notice of noteworthyNotices(preview.notices))
    process.stderr.write(`notice ${notice.code}: ${notice.message}\n`);
  for (const u of preview.marked?.unmarked ?? [])
    process.stderr.write(
      `docpipe: ${u.count > 0 ? `${u.count} tag(s)` : 'tags'} in ${u.file} not shaded: ${u.why}\n`,
    );
}
