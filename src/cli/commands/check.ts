import type { Command } from 'commander';
import { createEngine } from '../../app/index.js';
import { checkFixture, findTemplateFolders, type FixtureOutcome } from '../../check/index.js';
import { loadConfig } from '../../config/index.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { printJson } from '../io.js';

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      'test library templates against their fixtures: fill each fixture and compare with the expected text',
    )
    .argument(
      '[folder]',
      'a template folder, or a folder of them (default: the library, DOCPIPE_TEMPLATES_DIR)',
    )
    .option('--json', 'print a JSON array of outcomes')
    .addHelpText(
      'after',
      '\nA template folder holds template.docx, optional document.json ({name, locale, delimiters})\n' +
        'and fixtures/<name>.tags.json with fixtures/<name>.expected.txt (lines the filled text must contain).\n' +
        '\nExit status: 0 when every fixture passes, 1 when any fails, 2 on bad usage.',
    )
    .action(async (folder: string | undefined, flags: { json?: boolean }) => {
      const config = loadConfig();
      const dir = folder ?? config.templatesDir;
      let folders;
      try {
        folders = await findTemplateFolders(dir);
      } catch (err) {
        throw new UsageError(`cannot read templates in ${dir}: ${(err as Error).message}`);
      }
      if (folders.length === 0)
        throw new UsageError(`no template folders (with template.docx) in ${dir}`);
      const pool = createEngine(config);
      const outcomes: FixtureOutcome[] = [];
      try {
        for (const f of folders) {
          for (const fixture of f.fixtures) {
            const outcome = await checkFixture(f, fixture, (t, tags, o) =>
              pool.fill(t, tags, {
                ...o,
                locale: o.locale ?? config.locale,
                limits: config.limits,
              }),
            );
            outcomes.push(outcome);
            if (!flags.json) printOutcome(outcome);
          }
        }
      } finally {
        await pool.close();
      }
      const failed = outcomes.filter((o) => !o.ok).length;
      if (flags.json) printJson(outcomes);
      else process.stdout.write(`\n${outcomes.length - failed} passed, ${failed} failed\n`);
      process.exitCode = failed > 0 ? EXIT.failed : EXIT.ok;
    });
}

function printOutcome(o: FixtureOutcome): void {
  process.stdout.write(
    `${o.ok ? 'ok  ' : 'FAIL'}  ${o.document}/${o.fixture}  (${o.ms.toFixed(1)} ms)\n`,
  );
  for (const line of o.missing) process.stdout.write(`        missing text: ${line}\n`);
  if (o.failure) {
    process.stdout.write(`        ${o.failure.error}\n`);
    for (const d of o.failure.details) process.stdout.write(`          ${d.field}: ${d.message}\n`);
  }
}
