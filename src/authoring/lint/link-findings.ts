import { shortText } from './excerpt.js';
import type { LintPackage, PartRelationship } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';

/**
 * Relationships to outside the document that print fine as they are: hyperlinks stay clickable
 * links and nothing is fetched; the attached template and mail-merge sources are settings'
 * findings.
 */
const HARMLESS = ['/hyperlink', '/attachedTemplate', '/mailMergeSource', '/recipientData'];

/**
 * Pictures and content linked from outside the document. docpipe's hardened office never
 * fetches anything, so a linked picture prints blank and linked content prints as whatever
 * the document itself last stored.
 */
export function linkFindings(lint: LintPackage): LintFinding[] {
  const found: LintFinding[] = [];
  for (const rel of lint.relationships()) {
    if (!rel.external || HARMLESS.some((t) => rel.type.endsWith(t))) continue;
    const where = { ...locate(lint, rel), excerpt: shortText(rel.target) };
    if (rel.type.endsWith('/image'))
      found.push(
        finding(
          'linked_image',
          where,
          `A picture is linked to "${shortText(rel.target)}", not stored in the document: docpipe's office never fetches linked files, so it comes out blank in the PDF.`,
        ),
      );
    else
      found.push(
        finding(
          'external_link',
          where,
          `Content is linked from "${shortText(rel.target)}" (${kindOf(rel.type)}): docpipe's office never fetches it, so the PDF shows only what the document itself stored for it, or nothing.`,
        ),
      );
  }
  return found;
}

/** The part and paragraph that use a relationship, or the part that holds it. */
function locate(
  lint: LintPackage,
  rel: PartRelationship,
): { part: string; paragraph: number | null } {
  const part = lint.parts.find((p) => p.file === rel.from);
  const use = part?.relationshipUses.find((u) => u.id === rel.id);
  return { part: lint.label(rel.from), paragraph: use?.paragraph ?? null };
}

function kindOf(type: string): string {
  const kind = type.slice(type.lastIndexOf('/') + 1);
  const words: Record<string, string> = {
    oleObject: 'a linked object',
    subDocument: 'a subdocument',
    package: 'linked data',
    aFChunk: 'an imported file',
    frame: 'a frame',
    video: 'a video',
    audio: 'a sound',
  };
  return words[kind] ?? kind;
}
