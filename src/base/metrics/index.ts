export {
  DocpipeMetrics,
  type CountedQueue,
  type DocpipeMetricsOptions,
  type DocumentJobFacts,
} from './docpipe-metrics.js';
export { methodLabel, routeLabel, slugLabel, statusLabel, stepLabel } from './labels.js';
