import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { createPreparer } from '../../../app/parts/index.js';
import {
  FixtureRenderer,
  findTemplateFolders,
  reportTable,
  runCheck,
  SEARCH_DEPTH,
  watchTemplates,
  type CheckSettings,
  type FixtureOutcome,
  type TemplateFolder,
} from '../../../authoring/check/index.js';
import { prepareThreadsBeside, loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { errorWords } from '../../../base/files/index.js';
import { commandOffice } from '../command-office.js';
import { isPopplerMissingError, requirePoppler } from '../../../formats/raster/index.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { fillOptionsFrom } from '../io.js';
import { StopSignals } from '../stop-signals.js';

export interface CheckFlags {
  update?: boolean;
  watch?: boolean;
  json?: boolean;
  tolerance: string;
  maxChanged: string;
  diffDir?: string;
}

/** `docpipe check`, declared in commands/check.ts, which loads this module only when it runs. */
export async function runCheckCommand(
  folder: string | undefined,
  flags: CheckFlags,
): Promise<void> {
  const config = loadConfig();
  const dir = resolve(folder ?? config.templatesDir);
  const settings = settingsFrom(flags, config);
  const folders = await templateFolders(dir);
  await requireTools();
  const session = await CheckSession.open(config, officeProcesses(config, folders, flags));
  try {
    if (flags.watch) await watchRuns(session, dir, folders, settings, flags);
    else {
      const outcomes = await session.run(folders, settings, progressWanted(flags));
      report(outcomes, dir, folders, settings, flags);
      process.exitCode = outcomes.every((o) => o.ok) ? EXIT.ok : EXIT.failed;
    }
  } finally {
    await session.close();
  }
}

function settingsFrom(flags: CheckFlags, config: DocpipeConfig): CheckSettings {
  return {
    update: flags.update ?? false,
    tolerance: share('--tolerance', flags.tolerance),
    maxChanged: share('--max-changed', flags.maxChanged),
    diffDir: resolve(flags.diffDir ?? join(config.dataDir, 'check')),
  };
}

function share(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`${flag} must be a number from 0 to 1, such as 0.1 (got "${value}")`);
  return n;
}

async function templateFolders(dir: string): Promise<TemplateFolder[]> {
  let folders;
  try {
    folders = await findTemplateFolders(dir);
  } catch (err) {
    throw new UsageError(`cannot read templates in ${dir}: ${errorWords(err)}`);
  }
  if (folders.length === 0)
    throw new UsageError(
      `no template folders (with template.docx or document.json) in ${dir} or up to ${SEARCH_DEPTH} folders below it`,
    );
  return folders;
}

/** Before any office process starts: a machine without poppler cannot check a single page. */
async function requireTools(): Promise<void> {
  for (const tool of ['pdftoppm', 'pdftotext', 'pdfinfo'] as const) {
    await requirePoppler(tool).catch((err: unknown) => {
      throw isPopplerMissingError(err) ? new UsageError(err.details[0]!.message) : err;
    });
  }
}

/**
 * DOCPIPE_OFFICE_PROCESSES when set; else one per core, but no more than there are fixtures to
 * render at once (one fixture needs one process, which starts in about a second).
 */
function officeProcesses(
  config: DocpipeConfig,
  folders: TemplateFolder[],
  flags: CheckFlags,
): number {
  if (config.office.processes !== undefined) return config.office.processes;
  const fixtures = folders.reduce((n, f) => n + f.fixtures.length, 0);
  return flags.watch
    ? availableParallelism()
    : Math.max(1, Math.min(availableParallelism(), fixtures));
}

/** The warm office pool, the prepare threads and a renderer over temporary storage. */
class CheckSession {
  private constructor(
    private readonly renderer: FixtureRenderer,
    private readonly close_: () => Promise<void>,
    readonly processes: number,
  ) {}

  static async open(config: DocpipeConfig, processes: number): Promise<CheckSession> {
    const preparer = createPreparer(config, prepareThreadsBeside(processes));
    const { converter, logger } = await commandOffice(config, { processes }).catch(
      async (err: unknown) => {
        await preparer.close();
        throw err;
      },
    );
    const { limits: _limits, ...defaults } = fillOptionsFrom({}, config);
    const renderer = await FixtureRenderer.open({ preparer, converter, logger, defaults });
    return new CheckSession(
      renderer,
      async () => {
        await renderer.close();
        await converter.close();
        await preparer.close();
      },
      processes,
    );
  }

  run(
    folders: TemplateFolder[],
    settings: CheckSettings,
    progress: boolean,
  ): Promise<FixtureOutcome[]> {
    const total = folders.reduce((n, f) => n + Math.max(1, f.fixtures.length), 0);
    const bar = progress ? progressBar(total) : undefined;
    let failed = 0;
    return runCheck({
      folders,
      settings,
      concurrency: this.processes,
      render: (folder, template, tags) => this.renderer.render(folder, template, tags),
      onOutcome: (o) => {
        if (!o.ok) failed++;
        bar?.increment(1, { failed });
      },
    })
      .catch((err: unknown) => {
        // poppler removed during a run: the same words as when it was missing at the start.
        throw isPopplerMissingError(err) ? new UsageError(err.details[0]!.message) : err;
      })
      .finally(() => bar?.stop());
  }

  close(): Promise<void> {
    return this.close_();
  }
}

/** A bar on a terminal for a run long enough to wait for; never in JSON or a pipe. */
function progressWanted(flags: CheckFlags): boolean {
  return !flags.json && process.stderr.isTTY === true;
}

function progressBar(total: number): cliProgress.SingleBar {
  const bar = new cliProgress.SingleBar(
    {
      format: 'check |{bar}| {value}/{total} fixtures | ETA {eta_formatted} | failed {failed}',
      stream: process.stderr,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { failed: 0 });
  return bar;
}

function report(
  outcomes: FixtureOutcome[],
  dir: string,
  folders: TemplateFolder[],
  settings: CheckSettings,
  flags: CheckFlags,
): void {
  if (flags.json) printJson(outcomes);
  else
    process.stdout.write(
      reportTable(outcomes, {
        folder: dir,
        update: settings.update,
        templateDirs: new Map(folders.map((f) => [f.id, f.dir])),
      }),
    );
}

/**
 * Checks everything once, then again for the template folders that change, with the office pool
 * kept warm between runs, until Ctrl-C. Exit status is the last run's.
 */
async function watchRuns(
  session: CheckSession,
  dir: string,
  folders: TemplateFolder[],
  settings: CheckSettings,
  flags: CheckFlags,
): Promise<void> {
  const signals = new StopSignals(() => process.exit(EXIT.failed));
  const runAndReport = async (some: TemplateFolder[]): Promise<void> => {
    const outcomes = await session.run(some, settings, progressWanted(flags));
    report(outcomes, dir, some, settings, flags);
    process.exitCode = outcomes.every((o) => o.ok) ? EXIT.ok : EXIT.failed;
    if (!flags.json) process.stderr.write(`watching ${dir} (Ctrl-C stops)\n`);
  };
  try {
    await runAndReport(folders);
    let failure: Error | undefined;
    let failed!: () => void;
    const stopped = new Promise<void>((r) => (failed = r));
    const watch = watchTemplates(
      dir,
      async (changed) => {
        // A folder that appeared and a template folder in it may both be reported.
        const found = await Promise.all(
          changed.filter((d) => existsSync(d)).map((d) => findTemplateFolders(d, dir)),
        );
        const present = [...new Map(found.flat().map((f) => [f.dir, f])).values()];
        if (present.length === 0) return;
        if (!flags.json)
          process.stderr.write(`\nchanged: ${present.map((f) => f.dir).join(', ')}\n`);
        await runAndReport(present);
      },
      {
        onError: (err) => {
          failure = err;
          failed();
        },
      },
    );
    await Promise.race([signals.first, stopped]);
    watch.close();
    // A run in progress finishes its conversions before the pool closes; Ctrl-C again cuts it.
    await Promise.race([watch.idle(), signals.second]);
    if (failure) throw failure;
  } finally {
    signals.dispose();
  }
}
