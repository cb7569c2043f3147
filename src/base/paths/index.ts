export { projectRoot, workerFile } from './paths.js';
