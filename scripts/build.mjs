#!/usr/bin/env node
// Compiles src/ to plain JavaScript in build/ (same tree, `.ts` imports rewritten to `.js`, other files copied),
// so the service, worker, admin and render commands run without a TypeScript loader: the loader's hook thread
// sees every module the process loads and held about 75 MB of each process's memory. Incremental: a file is
// compiled again only when its source is newer than its output, and outputs whose source is gone are removed.
// Type checking stays with `npm run check`; this only strips types, file by file.
//
//   node scripts/build.mjs            build what changed
//   node scripts/build.mjs --check    exit 1 if anything is out of date, without building
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, copyFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const srcDir = join(root, 'src');
const outDir = join(root, 'build');

/** Whether a source file belongs in the build: tests and type declarations do not. */
const compiled = (path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts');
const shipped = (path) => compiled(path) || !path.endsWith('.ts');
const outputOf = (path) => join(outDir, relative(srcDir, path)).replace(/\.ts$/, '.js');

function walk(dir, visit) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else visit(path);
  }
}

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

const stale = [];
const expected = new Set();
walk(srcDir, (path) => {
  if (!shipped(path)) return;
  const out = outputOf(path);
  expected.add(out);
  if (mtime(out) < mtime(path)) stale.push(path);
});
const orphans = [];
try {
  walk(outDir, (path) => {
    if (!expected.has(path)) orphans.push(path);
  });
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}

if (process.argv.includes('--check')) {
  if (stale.length + orphans.length > 0) {
    console.error(
      `build/ is out of date: ${stale.length} changed, ${orphans.length} removed (npm run build)`,
    );
    process.exit(1);
  }
  process.exit(0);
}

if (stale.length > 0) {
  // Loaded only when there is work: TypeScript itself is large.
  const { default: ts } = await import('typescript');
  const options = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2023,
    rewriteRelativeImportExtensions: true,
    verbatimModuleSyntax: false,
    sourceMap: false,
  };
  for (const path of stale) {
    const out = outputOf(path);
    mkdirSync(dirname(out), { recursive: true });
    if (compiled(path)) {
      const { outputText } = ts.transpileModule(readFileSync(path, 'utf8'), {
        fileName: path,
        compilerOptions: options,
      });
      writeFileSync(out, outputText);
    } else {
      copyFileSync(path, out);
    }
  }
}
for (const path of orphans) rmSync(path);
if (stale.length + orphans.length > 0) {
  console.error(`build/: ${stale.length} file(s) compiled or copied, ${orphans.length} removed`);
}
