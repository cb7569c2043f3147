import type { FillOptions } from '../../document/fill/index.js';
import { placeMarkers, type RenderNotice } from '../../render/pipeline/index.js';
import type { SignaturePlace } from '../../document/anchors/index.js';
import { drawPlaces } from './draw-places.js';
import { rasterizePdf, type RasterOptions } from '../../formats/raster/index.js';
import type { SniffLimits } from '../../formats/sniff/index.js';
import { markTemplate, type MarkedTemplate } from './mark-template.js';

/** Screen resolution: a page as large as it looks at 100 % in a word processor. */
export const DEFAULT_PREVIEW_DPI = 96;

export interface PreviewRequest {
  /** TagInput values to fill in; without them the template is shown with its tags shaded. */
  tags?: unknown;
  /** What `render` would fill with (delimiters also find the tags to shade). */
  fill: Omit<FillOptions, 'limits'>;
  limits?: SniffLimits;
  /** @defaultValue DEFAULT_PREVIEW_DPI */
  dpi?: number;
}

export interface PreviewDeps {
  /**
   * Renders a .docx to PDF as `docpipe render` does (sniff, fill when given values, neutralize
   * links, convert in the warm office pool, check): a preview shows what a signer would get.
   */
  renderPdf(
    docx: Uint8Array,
    tags: unknown,
    fill: Omit<FillOptions, 'limits'>,
  ): Promise<PreviewPdf>;
  /** @defaultValue rasterizePdf (pdftoppm) */
  rasterize?: (pdf: Uint8Array, options: RasterOptions) => Promise<Buffer[]>;
}

export interface PreviewPdf {
  pdf: Uint8Array;
  /** The render's notices: a font substituted, an empty page. */
  notices: RenderNotice[];
  /** Where each signer signs, as the render answers them. */
  places?: SignaturePlace[];
}

export interface Preview {
  /** PNG images of the pages, in page order. */
  pages: Buffer[];
  /** The render's notices, as `docpipe render` reports them. */
  notices: RenderNotice[];
  /** How the tags were shaded, when no values were given. */
  marked?: MarkedTemplate;
  /** The anchors' places, drawn on the pages: a frame each, labelled `sign 1`. */
  places: SignaturePlace[];
}

/**
 * The pages of a template as images: filled with the values when given, else with every tag
 * shaded in place; either way each anchor's place is drawn (a labelled frame). Without values nothing is filled, so both branches of every section show and
 * the template is rendered as it is (not strict: no field needs a value).
 */
export async function previewTemplate(
  template: Uint8Array,
  request: PreviewRequest,
  deps: PreviewDeps,
): Promise<Preview> {
  const rasterize = deps.rasterize ?? rasterizePdf;
  const dpi = request.dpi ?? DEFAULT_PREVIEW_DPI;
  // Failures name what render's would: the template for its tags, the document for its pages.
  const field = request.fill.field || 'document';
  if (request.tags !== undefined) {
    const {
      pdf,
      notices,
      places = [],
    } = await deps.renderPdf(template, request.tags, request.fill);
    return {
      pages: await rasterize(await drawPlaces(pdf, places), { dpi, field }),
      notices,
      places,
    };
  }
  const marked = markTemplate(template, {
    delimiters: request.fill.delimiters,
    limits: request.limits,
    field: request.fill.field,
  });
  const rendered = await deps.renderPdf(marked.docx, [], { ...request.fill, strict: false });
  // The anchors went in as markers of the preview's own: found, measured and taken out here.
  const { pdf, places } =
    marked.anchors.length > 0
      ? await placeMarkers(rendered.pdf, marked.anchors, request.fill.field ?? '')
      : { pdf: rendered.pdf, places: [] };
  const pages = await rasterize(await drawPlaces(pdf, places), { dpi, field });
  return { pages, notices: rendered.notices, marked, places };
}
