export {
  neutralizeExternalReferences,
  INERT_TARGET,
  type NeutralizedReference,
} from './external-references.js';
