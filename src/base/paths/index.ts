export { projectRoot, workerFile } from './paths.js';
export { ROOT_CLUSTERS_DIR } from './root-clusters-dir.js';
