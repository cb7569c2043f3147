// `node --import` this file: the process then imports docpipe's TypeScript source (see
// source-loader.mjs).
import { register } from 'node:module';

register('./source-loader.mjs', import.meta.url);
