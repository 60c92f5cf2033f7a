import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';

// `npm start`, the worker, admin and render commands run the compiled build/ with plain Node (scripts/build.mjs),
// so nothing may depend on the TypeScript loader the tests run under.

const root = new URL('..', import.meta.url).pathname;
// Programs rather than modules: importing them starts them (the first-start tests run serve.js and admin.js;
// the vision child process is started by its client).
const ENTRY_POINTS = [
  'build/cli/serve.js',
  'build/cli/worker.js',
  'build/cli/admin.js',
  'build/media/vision/vision-process.js',
];

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

void describe('production build', () => {
  void test('is up to date with src/ (npm test builds it first)', () => {
    const check = spawnSync(process.execPath, ['scripts/build.mjs', '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(check.status, 0, check.stderr);
  });

  void test('has one module for every source module and imports no .ts file', () => {
    const sources = files(join(root, 'src'), '.ts').filter((f) => !/\.(test|d)\.ts$/.test(f));
    const built = new Set(files(join(root, 'build'), '.js'));
    for (const source of sources) {
      const output = source.replace(/^src\//, 'build/').replace(/\.ts$/, '.js');
      assert.ok(built.has(output), `${output} is missing`);
      assert.doesNotMatch(
        readFileSync(join(root, output), 'utf8'),
        /from\s+["']\.{1,2}\/[^"']+\.ts["']/,
        output,
      );
    }
  });

  void test('every compiled module loads in plain Node, without a TypeScript loader', () => {
    const modules = files(join(root, 'build'), '.js').filter(
      (f) => !f.startsWith('build/studio/public/') && !ENTRY_POINTS.includes(f),
    );
    const script = `for (const m of ${JSON.stringify(modules)}) await import(new URL(m, ${JSON.stringify(`file://${root}`)}).href);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    assert.equal(run.status, 0, run.stderr);
  });
});
