import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import { printJson } from '../print-json.js';

export function registerSniff(program: Command): void {
  program
    .command('sniff')
    .description(
      'decide from the bytes whether each file is a PDF, a real .docx, or unsupported (and why)',
    )
    .argument('<files...>', 'files to classify')
    .option('--json', 'one JSON object per line: {file, kind, reason, message, ...}')
    .addHelpText(
      'after',
      '\nExit status: 0 when every file is pdf or docx, 1 when any is unsupported, 2 on bad usage.\n' +
        'Reasons: empty, encrypted, macro-enabled, template, spreadsheet, presentation, opendocument,\n' +
        'legacy-office, rtf, zip, damaged, xml-doctype, too-large, unknown.',
    )
    .action(async (files: string[], flags: { json?: boolean }) => {
      // Only the input limits of the configuration, and sniff in this thread: a template author
      // runs sniff many times an hour, and threads (or the rest of docpipe) would cost more to
      // start than sniffing a few files does.
      const { loadInputLimits } = await import('../../../app/env/index.js');
      const { sniff, tooLargeSniff } = await import('../../../formats/sniff/index.js');
      const { readInput, TooLargeInput } = await import('../../../base/files/index.js');
      const limits = loadInputLimits();
      let status: number = EXIT.ok;
      // Read all first so that a missing file is a usage error before any output; one at a
      // time, so that many large inputs never hold more than the limit each at once in reads.
      const inputs = [];
      for (const file of files) inputs.push(await readInput(file, limits.maxInputBytes));
      const width = Math.min(60, Math.max(...files.map((f) => f.length)));
      for (const [i, input] of inputs.entries()) {
        const file = files[i]!;
        const result =
          input instanceof TooLargeInput ? tooLargeSniff(input) : await sniff(input, limits);
        if (result.kind === 'unsupported') status = EXIT.failed;
        if (flags.json) {
          printJson({
            file,
            ...result,
            reason: result.kind === 'unsupported' ? result.reason : null,
          });
        } else {
          const tail = result.kind === 'unsupported' ? `${result.reason}\t${result.message}` : '';
          process.stdout.write(`${file.padEnd(width)}\t${result.kind}${tail ? `\t${tail}` : ''}\n`);
        }
      }
      process.exitCode = status;
    });
}
