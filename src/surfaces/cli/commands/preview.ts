import type { Command } from 'commander';
import type { PreviewFlags } from '../actions/preview.js';
import { HELP_DEFAULTS } from '../help-defaults.js';

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
    .option(
      '--dpi <n>',
      `resolution of the images, 1 to ${HELP_DEFAULTS.maxDpi}`,
      String(HELP_DEFAULTS.previewDpi),
    )
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
    .action(async (template: string, flags: PreviewFlags) =>
      (await import('../actions/preview.js')).runPreview(template, flags),
    );
}
