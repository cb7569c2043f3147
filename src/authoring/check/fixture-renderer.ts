import type { RenderOptions } from '../../render/pipeline/index.js';
import {
  ScratchRenderer,
  type ScratchRender,
  type ScratchRendererDeps,
} from './scratch-renderer.js';
import type { TemplateFolder } from './template-folders.js';

export type RenderedFixture = ScratchRender;

export interface FixtureRendererDeps extends ScratchRendererDeps {
  /** Options under each folder's document.json: the configured locale, time zone, delimiters. */
  defaults: RenderOptions;
}

/** Renders fixtures over a ScratchRenderer, with their folder's document.json settings. */
export class FixtureRenderer {
  private constructor(
    private readonly scratch: ScratchRenderer,
    private readonly defaults: RenderOptions,
  ) {}

  static async open(deps: FixtureRendererDeps): Promise<FixtureRenderer> {
    return new FixtureRenderer(await ScratchRenderer.open(deps), deps.defaults);
  }

  /** The fixture's PDF; a typed failure (bad values, a broken template) as DocpipeError. */
  render(folder: TemplateFolder, template: Buffer, tags: unknown): Promise<RenderedFixture> {
    // Library documents are always strict (spec 4.4, rule 2): a value for a tag the template
    // lacks is a fixture's mistake, as it would be a caller's.
    const options: RenderOptions = { ...this.defaults, ...folder.options, strict: true };
    return this.scratch.render({ bytes: template, name: folder.name }, tags, options);
  }

  /** Removes the temporary storage; the preparer and converter are the caller's to close. */
  close(): Promise<void> {
    return this.scratch.close();
  }
}
