import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Converter } from '../../render/convert/index.js';
import type { Logger } from '../../base/log/index.js';
import { Renderer, type RenderNotice, type RenderOptions } from '../../render/pipeline/index.js';
import type { Preparer } from '../../render/prepare/index.js';
import { LocalStorage } from '../../render/storage/index.js';
import type { SignaturePlace } from '../../document/anchors/index.js';

/** A PDF rendered for a look (check, preview): never kept. */
export interface ScratchRender {
  pdf: Buffer;
  pages: number;
  /** What the renderer noticed: a font substituted, an empty page. */
  notices: RenderNotice[];
  /** Where each signer signs (the anchors' places); absent when none. */
  places?: SignaturePlace[];
}

export interface ScratchRendererDeps {
  preparer: Preparer;
  converter: Converter;
  logger?: Logger;
}

/**
 * Renders the way `docpipe render` and the queue do (the pipeline's Renderer: sniff, fill,
 * harden, convert in the warm office pool, the PDF check), over a storage of its own in a
 * temporary folder: a check or a preview never writes into the data folder's store and never
 * answers from a render made before it started. Each PDF is read back and discarded at once.
 */
export class ScratchRenderer {
  private constructor(
    private readonly renderer: Renderer,
    private readonly storage: LocalStorage,
  ) {}

  static async open(deps: ScratchRendererDeps): Promise<ScratchRenderer> {
    const dir = await mkdtemp(join(tmpdir(), 'docpipe-scratch-'));
    const storage = new LocalStorage(dir);
    const renderer = new Renderer({
      preparer: deps.preparer,
      converter: deps.converter,
      storage,
      logger: deps.logger,
    });
    return new ScratchRenderer(renderer, storage);
  }

  /** The PDF; a typed failure (bad values, a broken template) as DocpipeError. */
  async render(
    input: { bytes: Uint8Array; name: string },
    tags: unknown,
    options: RenderOptions,
  ): Promise<ScratchRender> {
    const result = await this.renderer.render(input, tags, options);
    const pdf = await this.storage.get(result.key);
    if (!pdf) throw new Error(`the rendered PDF ${result.key} vanished from ${this.storage.root}`);
    await this.renderer.discard(result);
    return {
      pdf,
      pages: result.pages,
      notices: result.notices,
      ...(result.places ? { places: result.places } : {}),
    };
  }

  /** Removes the temporary storage; the preparer and converter are the caller's to close. */
  async close(): Promise<void> {
    await rm(this.storage.root, { recursive: true, force: true });
  }
}
