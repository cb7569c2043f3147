import { elementsNamed } from './xml-text.js';

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

export function parseRelationships(xml: string): Relationship[] {
  return elementsNamed(xml, 'Relationship').map((r) => ({
    id: r.Id ?? '',
    type: r.Type ?? '',
    target: r.Target ?? '',
    external: (r.TargetMode ?? '').toLowerCase() === 'external',
  }));
}

/**
 * The officeDocument relationship type, transitional or strict. Strict OOXML uses the purl.oclc.org
 * namespace for the same relationship.
 */
export function isOfficeDocumentRelationship(type: string): boolean {
  return (
    type === 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument' ||
    type === 'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument'
  );
}

export function isStrictRelationship(type: string): boolean {
  return type.startsWith('http://purl.oclc.org/ooxml/');
}
