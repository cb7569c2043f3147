import { unescapeXml } from '../../formats/opc/index.js';
import { shortText } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import { attribute, xmlTokens } from './xml-tokens.js';

interface Comment {
  id: string;
  author: string;
  text: string;
  /** Its first paragraph in the comments part. */
  paragraph: number;
}

/**
 * Review comments, each where it is anchored in the document (or, anchored nowhere, where it
 * sits in the comments part).
 */
export function commentFindings(lint: LintPackage): LintFinding[] {
  const found: LintFinding[] = [];
  for (const part of lint.parts) {
    if (!lint.contentType(part.file).endsWith('.comments+xml')) continue;
    for (const comment of readComments(lint.xml(part.file) ?? '')) {
      const anchor = lint.parts
        .filter((p) => p !== part)
        .flatMap((p) =>
          p.commentAnchors.map((a) => ({ part: p.label, paragraph: a.paragraph, id: a.id })),
        )
        .find((a) => a.id === comment.id);
      found.push(
        finding(
          'comments',
          {
            part: anchor?.part ?? part.label,
            paragraph: anchor ? anchor.paragraph : comment.paragraph || null,
            excerpt: shortText(comment.text),
          },
          `A review comment${comment.author ? ` by ${comment.author}` : ''}: comments are left out of the PDF, but they travel with the filled .docx to whoever receives it, and docpipe fills tags in them.`,
        ),
      );
    }
  }
  return found;
}

function readComments(xml: string): Comment[] {
  const comments: Comment[] = [];
  let current: Comment | undefined;
  let paragraphs = 0;
  let inText = false;
  for (const token of xmlTokens(xml)) {
    if (token.kind === 'text') {
      if (inText && current) current.text += unescapeXml(token.raw);
      continue;
    }
    const name = token.name;
    if (token.kind === 'close') {
      if (name === 'w:comment' && current) comments.push(current);
      if (name === 'w:comment') current = undefined;
      if (name === 'w:t') inText = false;
      continue;
    }
    if (name === 'w:p') {
      paragraphs++;
      if (current && current.paragraph === 0) current.paragraph = paragraphs;
      if (current && current.text) current.text += ' ';
    } else if (name === 'w:t') inText = token.kind === 'open';
    else if (name === 'w:comment')
      current = {
        id: attribute(token.attrs, 'id') ?? '',
        author: attribute(token.attrs, 'author') ?? '',
        text: '',
        paragraph: 0,
      };
  }
  return comments;
}
