import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Converter } from '../convert/index.js';
import type { Logger } from '../log/index.js';
import { Renderer, type Engine, type RenderNotice, type RenderOptions } from '../pipeline/index.js';
import { LocalStorage } from '../storage/index.js';
import type { TemplateFolder } from './template-folders.js';

export interface RenderedFixture {
  pdf: Buffer;
  pages: number;
  /** What the renderer noticed: a font substituted, an empty page. */
  notices: RenderNotice[];
}

export interface FixtureRendererDeps {
  engine: Engine;
  converter: Converter;
  logger?: Logger;
  /** Options under each folder's document.json: the configured locale, time zone, delimiters. */
  defaults: RenderOptions;
}

/**
 * Renders fixtures the way `docpipe render` and the queue do (the pipeline's Renderer: sniff,
 * fill, harden, convert in the warm office pool, the PDF check), over a storage of its own in a
 * temporary folder, so that a check never writes into the data folder's store and never answers
 * from a render made before it started. Each PDF is read back and discarded at once.
 */
export class FixtureRenderer {
  private constructor(
    private readonly renderer: Renderer,
    private readonly storage: LocalStorage,
    private readonly defaults: RenderOptions,
  ) {}

  static async open(deps: FixtureRendererDeps): Promise<FixtureRenderer> {
    const dir = await mkdtemp(join(tmpdir(), 'docpipe-check-'));
    const storage = new LocalStorage(dir);
    const renderer = new Renderer({
      engine: deps.engine,
      converter: deps.converter,
      storage,
      logger: deps.logger,
    });
    return new FixtureRenderer(renderer, storage, deps.defaults);
  }

  /** The fixture's PDF; a typed failure (bad values, a broken template) as DocpipeError. */
  async render(folder: TemplateFolder, template: Buffer, tags: unknown): Promise<RenderedFixture> {
    // Library documents are always strict (spec 4.4, rule 2): a value for a tag the template
    // lacks is a fixture's mistake, as it would be a caller's.
    const options: RenderOptions = { ...this.defaults, ...folder.options, strict: true };
    const result = await this.renderer.render(
      { bytes: template, name: folder.name },
      tags,
      options,
    );
    const pdf = await this.storage.get(result.key);
    if (!pdf) throw new Error(`the rendered PDF ${result.key} vanished from ${this.storage.root}`);
    await this.renderer.discard(result);
    return { pdf, pages: result.pages, notices: result.notices };
  }

  /** Removes the temporary storage; the engine and converter are the caller's to close. */
  async close(): Promise<void> {
    await rm(this.storage.root, { recursive: true, force: true });
  }
}
