export {
  decodeXml,
  hasDoctype,
  hasDefiningDoctype,
  unescapeXml,
  badCharacterReference,
  unnamedCharacter,
  escapeXml,
  elementsNamed,
  tagAttributes,
  localName,
  attributeByLocalName,
  attributesByLocalName,
} from './xml-text.js';
export { readXmlPart, badCharacterReferenceIn, damagedXmlOf } from './xml-part.js';
export { sniffXml, textEncodingOf, type XmlEncoding, type XmlSniff } from './xml-encoding.js';
export { resolvePartName, extensionOf } from './part-names.js';
export {
  ContentTypes,
  CONTENT_TYPES_PART,
  MAIN_CONTENT_TYPES,
  VBA_PROJECT_CONTENT_TYPE,
  isXmlContentType,
} from './content-types.js';
export {
  parseRelationships,
  isOfficeDocumentRelationship,
  isStrictRelationship,
  type Relationship,
} from './relationships.js';
