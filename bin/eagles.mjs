#!/usr/bin/env node
// The installed `eagles` command (package.json "bin", so `npx eagles …` in a clone): loads tsx's loader in this
// process, then bin/eagles.ts, as `node --import tsx bin/eagles.ts …` does.
await import('tsx');
await import('./eagles.ts');
