#!/usr/bin/env node
import { runDocpipe } from './program.js';
import { handleStrayErrors } from './top-level-error.js';

handleStrayErrors();
await runDocpipe(process.argv);
