import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CHECK_SETTINGS,
  DIFF_DPI,
  SEARCH_DEPTH,
  SNAPSHOT_DPI,
} from '../../src/authoring/check/index.js';
import { DEFAULT_PREVIEW_DPI } from '../../src/authoring/preview/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { MAX_DPI } from '../../src/formats/raster/index.js';
import { DEFAULT_CLOSE_GRACE_MS } from '../../src/jobs/queue/index.js';
import { registerCheck } from '../../src/surfaces/cli/commands/check.js';
import { registerEnqueue } from '../../src/surfaces/cli/commands/enqueue.js';
import { registerFields } from '../../src/surfaces/cli/commands/fields.js';
import { registerKeys } from '../../src/surfaces/cli/commands/keys.js';
import { registerLint } from '../../src/surfaces/cli/commands/lint.js';
import { registerPreview } from '../../src/surfaces/cli/commands/preview.js';
import { registerRender } from '../../src/surfaces/cli/commands/render.js';
import { registerRerender } from '../../src/surfaces/cli/commands/rerender.js';
import { registerSniff } from '../../src/surfaces/cli/commands/sniff.js';
import { registerStart } from '../../src/surfaces/cli/commands/start.js';
import { registerStorage } from '../../src/surfaces/cli/commands/storage.js';
import { registerPostgres } from '../../src/surfaces/cli/commands/postgres.js';
import { registerCompanies } from '../../src/surfaces/cli/commands/companies.js';
import { registerUsers } from '../../src/surfaces/cli/commands/users.js';
import { registerFolders } from '../../src/surfaces/cli/commands/folders.js';
import { registerPresets } from '../../src/surfaces/cli/commands/presets.js';
import { registerMessageTemplates } from '../../src/surfaces/cli/commands/message-templates.js';
import { registerWebhooks } from '../../src/surfaces/cli/commands/webhooks.js';
import { registerForms } from '../../src/surfaces/cli/commands/forms.js';
import { HELP_DEFAULTS } from '../../src/surfaces/cli/help-defaults.js';

/**
 * The CLI declares every command, with its arguments, options and help, before it parses; a
 * command's action loads what it needs only when it runs (src/surfaces/cli/actions/). Here: the
 * declarations still make the same help, and they import nothing that would load the rest of
 * docpipe (test/integration/cli-startup.test.ts counts what the built CLI loads).
 */

const root = projectRoot();
const cli = join(root, 'src', 'surfaces', 'cli');

function program(): Command {
  const p = new Command('docpipe');
  for (const register of [
    registerSniff,
    registerFields,
    registerRender,
    registerCheck,
    registerLint,
    registerPreview,
    registerStart,
    registerEnqueue,
    registerRerender,
    registerKeys,
    registerStorage,
    registerPostgres,
    registerCompanies,
    registerUsers,
    registerFolders,
    registerPresets,
    registerMessageTemplates,
    registerForms,
    registerWebhooks,
  ])
    register(p);
  return p;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe('docpipe --help', () => {
  it('lists every command with its description', () => {
    const p = program();
    const help = oneLine(p.helpInformation());
    const names = p.commands.map((c) => c.name());
    expect(names).toEqual([
      'sniff',
      'fields',
      'render',
      'check',
      'lint',
      'preview',
      'start',
      'worker',
      'serve',
      'enqueue',
      'rerender',
      'keys',
      'storage',
      'postgres',
      'companies',
      'users',
      'folders',
      'presets',
      'message-templates',
      'forms',
      'webhooks',
    ]);
    for (const command of p.commands) {
      expect(command.description().length, command.name()).toBeGreaterThan(20);
      // The command's line: its name (and usage, when it takes arguments), then its description.
      const line = new RegExp(
        `${command.name()} (\\S+ )*${oneLine(command.description()).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      );
      expect(help, command.name()).toMatch(line);
    }
  });

  it('gives every command and subcommand an action or subcommands of its own', () => {
    const leaves = (c: Command): Command[] =>
      c.commands.length === 0 ? [c] : c.commands.flatMap(leaves);
    const all = program().commands.flatMap(leaves);
    expect(all.map((c) => c.name())).toContain('create');
    for (const command of all) {
      // commander keeps the action as _actionHandler; without one the command would do nothing.
      expect(
        (command as unknown as { _actionHandler: unknown })._actionHandler,
        command.name(),
      ).toBeTypeOf('function');
    }
  });

  it('shows the defaults of the settings themselves', () => {
    expect(HELP_DEFAULTS).toEqual({
      checkSearchDepth: SEARCH_DEPTH,
      checkTolerance: DEFAULT_CHECK_SETTINGS.tolerance,
      checkMaxChanged: DEFAULT_CHECK_SETTINGS.maxChanged,
      snapshotDpi: SNAPSHOT_DPI,
      diffDpi: DIFF_DPI,
      previewDpi: DEFAULT_PREVIEW_DPI,
      maxDpi: MAX_DPI,
      closeGraceMs: DEFAULT_CLOSE_GRACE_MS,
    });
    const check = oneLine(
      program()
        .commands.find((c) => c.name() === 'check')!
        .helpInformation(),
    );
    expect(check).toContain(`(default: "${DEFAULT_CHECK_SETTINGS.tolerance}")`);
  });
});

/** The modules main.ts and the command declarations import for their values (not types). */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    const named = statement.importClause?.namedBindings;
    const allTypes =
      named !== undefined &&
      ts.isNamedImports(named) &&
      statement.importClause?.name === undefined &&
      named.elements.every((e) => e.isTypeOnly);
    if (!allTypes) out.push((statement.moduleSpecifier as ts.StringLiteral).text);
  }
  return out;
}

describe("the CLI's start-up", () => {
  // What declaring the commands and handling their errors may load: commander, Node's own
  // modules and the CLI's light helpers, the error registry, input errors, the project root and
  // the input limits (ConfigError).
  const light = new Set([
    'commander',
    '../exit-codes.js',
    '../help-defaults.js',
    '../print-json.js',
    '../report-failure.js',
    // The help text the company records' commands share (commands/records-help.ts).
    './records-help.js',
    './exit-codes.js',
    './top-level-error.js',
    // main.ts runs the program that program.ts declares (apart, so tests can run it in-process).
    './program.js',
    '../../app/env/index.js',
    '../../base/files/index.js',
    '../../base/paths/index.js',
  ]);
  const files = [
    join(cli, 'main.ts'),
    join(cli, 'program.ts'),
    ...readdirSync(join(cli, 'commands')).map((f) => join(cli, 'commands', f)),
  ];

  it('declares the commands importing nothing heavy: each action imports its own modules', () => {
    expect(files.length).toBe(25);
    for (const file of files) {
      const heavy = valueImports(file).filter(
        (m) => !m.startsWith('node:') && !light.has(m) && !m.startsWith('./commands/'),
      );
      expect(heavy, file).toEqual([]);
    }
  });
});
