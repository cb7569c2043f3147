import { elementsNamed } from './xml-text.js';
import { extensionOf } from './part-names.js';

export const CONTENT_TYPES_PART = '[Content_Types].xml';

/** The `[Content_Types].xml` of a package: defaults by extension, overrides by part name. */
export class ContentTypes {
  private constructor(
    private readonly defaults: Map<string, string>,
    private readonly overrides: Map<string, string>,
  ) {}

  static parse(xml: string): ContentTypes {
    const defaults = new Map<string, string>();
    const overrides = new Map<string, string>();
    for (const d of elementsNamed(xml, 'Default')) {
      if (d.Extension && d.ContentType)
        defaults.set(d.Extension.toLowerCase(), d.ContentType.trim());
    }
    for (const o of elementsNamed(xml, 'Override')) {
      if (o.PartName && o.ContentType) {
        overrides.set(o.PartName.replace(/^\//, '').toLowerCase(), o.ContentType.trim());
      }
    }
    return new ContentTypes(defaults, overrides);
  }

  /** Content type of a part, by override first and then by extension. */
  of(partName: string): string | undefined {
    return this.overrides.get(partName.toLowerCase()) ?? this.defaults.get(extensionOf(partName));
  }

  /** Every content type the package declares, for spotting macro parts. */
  all(): string[] {
    return [...this.defaults.values(), ...this.overrides.values()];
  }
}

/** Content types of the main parts that decide what a package is. */
export const MAIN_CONTENT_TYPES = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  docm: 'application/vnd.ms-word.document.macroenabled.main+xml',
  dotx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml',
  dotm: 'application/vnd.ms-word.template.macroenabledtemplate.main+xml',
} as const;

export const VBA_PROJECT_CONTENT_TYPE = 'application/vnd.ms-office.vbaproject';

/** Whether a content type names an XML part, which must then pass the DOCTYPE check. */
export function isXmlContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const ct = contentType.toLowerCase();
  return ct.endsWith('+xml') || ct.endsWith('/xml');
}
