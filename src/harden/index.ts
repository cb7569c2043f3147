export {
  neutralizeExternalReferences,
  neutralizePackage,
  planNeutralization,
  INERT_TARGET,
  type NeutralizedReference,
} from './external-references.js';
