import type { Command } from 'commander';
import { createPreparer } from '../../../app/wiring/index.js';
import { loadConfig } from '../../../app/config/index.js';
import { tooLargeSniff } from '../../../formats/sniff/index.js';
import { EXIT } from '../exit-codes.js';
import { printJson } from '../io.js';
import { readInput, TooLargeInput } from '../../../base/files/index.js';

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
      const config = loadConfig();
      const pool = createPreparer(config);
      let status: number = EXIT.ok;
      try {
        // Read all first so that a missing file is a usage error before any output; one at a
        // time, so that many large inputs never hold more than the limit each at once in reads.
        const inputs = [];
        for (const file of files) inputs.push(await readInput(file, config.limits.maxInputBytes));
        const results = await Promise.all(
          inputs.map((input) =>
            input instanceof TooLargeInput
              ? Promise.resolve(tooLargeSniff(input))
              : pool.sniff(input),
          ),
        );
        const width = Math.min(60, Math.max(...files.map((f) => f.length)));
        results.forEach((result, i) => {
          const file = files[i]!;
          if (result.kind === 'unsupported') status = EXIT.failed;
          if (flags.json) {
            printJson({
              file,
              ...result,
              reason: result.kind === 'unsupported' ? result.reason : null,
            });
          } else {
            const tail = result.kind === 'unsupported' ? `${result.reason}\t${result.message}` : '';
            process.stdout.write(
              `${file.padEnd(width)}\t${result.kind}${tail ? `\t${tail}` : ''}\n`,
            );
          }
        });
      } finally {
        await pool.close();
      }
      process.exitCode = status;
    });
}
