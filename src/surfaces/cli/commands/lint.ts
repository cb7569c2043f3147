import type { Command } from 'commander';
import type { LintFinding, TemplateReport } from '../../../authoring/lint/index.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { printJson } from '../print-json.js';

const EXAMPLES = `
Examples:
  docpipe lint templates/lease/template.docx
  docpipe lint templates/lease                 # a library folder: its document.json is honoured
  docpipe lint templates                       # every library document under it
  docpipe lint contract.docx --delimiters "{{ }}"
  docpipe lint --json templates > lint.json

Each finding names its part (body, header1, footer2, footnotes, comments, ...), paragraph (¶,
counted from 1 in that part), an excerpt and an id in docxtemplater's words where it has one
(unclosed_tag, unopened_loop, ...). docs/lint.md explains every id and how to fix it.

Exit status: 1 when any finding is an error, 0 when there are none or only warnings,
2 on bad usage (an unknown option, a file that cannot be read).`;

export function registerLint(program: Command): void {
  program
    .command('lint')
    .description(
      'check templates before they reach a signer: broken or misplaced tags and sections, near misses ({{tag}}, ${tag}, [tag]), and what the PDF shows that the author may not see (tracked changes, hidden text, self-updating fields, linked pictures, fonts that are not installed); every problem at once',
    )
    .argument('<templates...>', '.docx templates, library document folders, or folders of them')
    .option('--json', 'print a JSON array of {template, errors, warnings, findings}')
    .option(
      '--delimiters <pair>',
      'tag delimiters, start and end separated by a space, such as "{{ }}" (default: document.json\'s, else DOCPIPE_DELIMITERS)',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], flags: { json?: boolean; delimiters?: string }) => {
      const { loadConfig } = await import('../../../app/config/index.js');
      const { lintFile, lintTargets } = await import('../../../authoring/lint/index.js');
      const { templateFlagsFrom } = await import('../io.js');
      const config = loadConfig();
      const override = templateFlagsFrom({ delimiters: flags.delimiters }).delimiters;
      const targets = await lintTargets(paths);
      if (targets.length === 0)
        throw new UsageError(
          `no template to lint in ${paths.join(', ')} (no template.docx or document.json)`,
        );
      const reports: TemplateReport[] = [];
      for (const target of targets)
        reports.push(
          await lintFile(target, {
            delimiters: config.delimiters,
            ...(override ? { override } : {}),
            limits: config.limits,
          }),
        );
      if (flags.json) printJson(reports);
      else for (const report of reports) printReport(report);
      process.exitCode = reports.some((r) => r.errors > 0) ? EXIT.failed : EXIT.ok;
    });
}

/** One line per finding (template, where, severity, id, excerpt, explanation), its fix below. */
function printReport(report: TemplateReport): void {
  const out: string[] = [];
  const width = Math.max(0, ...report.findings.map((f) => placeOf(f).length));
  const idWidth = Math.max(0, ...report.findings.map((f) => f.id.length));
  for (const f of report.findings) {
    const excerpt = f.excerpt ? `  "${f.excerpt}"` : '';
    out.push(
      `${report.template}  ${placeOf(f).padEnd(width)}  ${f.severity.padEnd(7)}  ${f.id.padEnd(idWidth)}${excerpt}  ${f.explanation}`,
    );
    if (f.fix) out.push(`    fix: ${f.fix}`);
  }
  out.push(`${report.template}: ${summary(report)}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

function placeOf(f: LintFinding): string {
  return f.paragraph === null ? f.part : `${f.part} ¶${f.paragraph}`;
}

function summary(report: TemplateReport): string {
  if (report.findings.length === 0) return 'no findings';
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${count(report.errors, 'error')}, ${count(report.warnings, 'warning')}`;
}
