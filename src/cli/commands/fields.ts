import type { Command } from 'commander';
import { createEngine } from '../../app/index.js';
import { loadConfig } from '../../config/index.js';
import { fillOptionsFrom, printJson } from '../io.js';
import { readInput, TooLargeInput } from '../../files/index.js';
import { runDocumentCommand } from '../report-failure.js';

export function registerFields(program: Command): void {
  program
    .command('fields')
    .description('list the fields a .docx template needs filled: tag, kind, parts and count')
    .argument('<template>', 'the .docx template')
    .option('--json', 'print a JSON array of {tag, kind, usedAs, count, parts, within}')
    .option(
      '--delimiters <pair>',
      'tag delimiters, start and end separated by a space, such as "{{ }}"',
    )
    .addHelpText(
      'after',
      '\nExit status: 0 ok, 1 when the template is broken or not a .docx (typed failure), 2 on bad usage.',
    )
    .action(async (template: string, flags: { json?: boolean; delimiters?: string }) => {
      const config = loadConfig();
      const options = fillOptionsFrom(flags, config);
      const bytes = await readInput(template, config.limits.maxInputBytes);
      const pool = createEngine(config, 1);
      try {
        await runDocumentCommand(flags.json, async () => {
          if (bytes instanceof TooLargeInput) throw bytes.toError('template');
          const fields = await pool.fields(bytes, { delimiters: options.delimiters });
          if (flags.json) return printJson(fields);
          if (fields.length === 0) return void process.stdout.write('no fields\n');
          const width = Math.min(40, Math.max(3, ...fields.map((f) => f.tag.length)));
          process.stdout.write(`${'TAG'.padEnd(width)}  KIND         COUNT  PARTS\n`);
          for (const f of fields) {
            const parts = f.parts.map((p) => (p.part === 'other' ? p.file : p.part)).join(', ');
            process.stdout.write(
              `${f.tag.padEnd(width)}  ${f.kind.padEnd(11)}  ${String(f.count).padStart(5)}  ${parts}\n`,
            );
          }
        });
      } finally {
        await pool.close();
      }
    });
}
