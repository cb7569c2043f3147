export { BoundedLru, type LruLimits } from './bounded-lru.js';
