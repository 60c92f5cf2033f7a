#!/usr/bin/env node
// The `reelsmith` command: the compiled CLI (npm ci builds dist/ through the package's prepare script).
import { main } from '../dist/cli/main.js';

main();
