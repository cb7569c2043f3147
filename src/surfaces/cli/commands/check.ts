import type { Command } from 'commander';
import type { CheckFlags } from '../actions/check.js';
import { HELP_DEFAULTS } from '../help-defaults.js';

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      'test library templates against their fixtures: render each through the office pool and compare its text, page count and page images with the expected lines and stored snapshots',
    )
    .argument(
      '[folder]',
      `a template folder, or a folder holding them up to ${HELP_DEFAULTS.checkSearchDepth} folders down (default: the library, DOCPIPE_TEMPLATES_DIR)`,
    )
    .option(
      '--update',
      'record snapshots (text, page count, page images) that differ or are missing',
    )
    .option('--watch', 'check again whenever a template, document.json or fixture changes')
    .option('--json', 'print a JSON array of outcomes (with --watch: one array per run)')
    .option(
      '--tolerance <0..1>',
      'per-pixel colour tolerance (pixelmatch threshold)',
      String(HELP_DEFAULTS.checkTolerance),
    )
    .option(
      '--max-changed <0..1>',
      "share of a page's pixels that may change before the page fails",
      String(HELP_DEFAULTS.checkMaxChanged),
    )
    .option(
      '--diff-dir <dir>',
      'where diff images and changed texts go (default: DOCPIPE_DATA_DIR/check)',
    )
    .addHelpText(
      'after',
      '\nA template folder holds template.docx, document.json and fixtures/<name>.tags.json with\n' +
        'fixtures/<name>.expected.txt (lines the PDF text must contain). check --update records\n' +
        `snapshots/<name>.txt (pdftotext -layout), snapshots/<name>.json (the page count) and\n` +
        `snapshots/<name>.p<N>.png (page N, grey, ${HELP_DEFAULTS.snapshotDpi} dpi); check compares with them: a missing\n` +
        'snapshot fails. On a difference it names the page and where on it, and writes a diff image\n' +
        `at ${HELP_DEFAULTS.diffDpi} dpi under --diff-dir/<template>/ (red: gone, green: new).\n` +
        '\nExamples:\n' +
        '  docpipe check templates/\n' +
        '  docpipe check templates/lease --update\n' +
        '  docpipe check templates/ --watch\n' +
        '\nExit status: 0 when every fixture passes, 1 when any fails, 2 on bad usage\n' +
        '(no template folder, a bad option, poppler-utils not installed).',
    )
    .action(async (folder: string | undefined, flags: CheckFlags) =>
      (await import('../actions/check.js')).runCheckCommand(folder, flags),
    );
}
