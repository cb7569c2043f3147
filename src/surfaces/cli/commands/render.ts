import type { Command } from 'commander';
import type { RenderFlags } from '../actions/render.js';

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
      'refuse the render when a font was replaced by one of other widths, a page is empty, or a value is hidden or has characters no font draws (default: DOCPIPE_STRICT_FIDELITY)',
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
    .action(async (input: string, flags: RenderFlags) =>
      (await import('../actions/render.js')).runRender(input, flags),
    );
}
