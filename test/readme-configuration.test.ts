import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CONFIG_VARIABLES } from '../src/platform/config.ts';

// Every environment variable the code reads is in README's configuration table, so a setting can be found.

const root = new URL('..', import.meta.url).pathname;
/** Variables of the operating system itself, not settings of ours. */
const SYSTEM_VARIABLES = new Set(['PATH', 'HOME', 'TMPDIR']);

function documentedVariables(): Set<string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration');
  assert.ok(start >= 0, 'README has a Configuration section');
  const end = readme.indexOf('\n## ', start + 1);
  const rows = readme
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return new Set(
    rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs|sh)$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Names read as process.env.X / env.X / env['X'] in the service's code and scripts (tests excluded). */
function variablesReadByCode(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'scripts'))]) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)/g))
      found.set(match[1]!, file.slice(root.length));
  }
  return found;
}

void describe('README configuration table', () => {
  void test('documents every variable of the configuration schema', () => {
    const documented = documentedVariables();
    const missing = CONFIG_VARIABLES.filter((name) => !documented.has(name));
    assert.deepEqual(missing, [], `add these to README's configuration table: ${missing.join(', ')}`);
  });

  void test('documents every variable the code and scripts read directly', () => {
    const documented = documentedVariables();
    const missing = [...variablesReadByCode()]
      .filter(([name]) => !documented.has(name) && !SYSTEM_VARIABLES.has(name))
      .map(([name, file]) => `${name} (${file})`);
    assert.deepEqual(missing, [], `add these to README's configuration table: ${missing.join(', ')}`);
  });

  void test('lists no variable that nothing reads', () => {
    const read = new Set([...CONFIG_VARIABLES, ...variablesReadByCode().keys()]);
    const stale = [...documentedVariables()].filter((name) => !read.has(name));
    assert.deepEqual(stale, [], `README documents variables nothing reads: ${stale.join(', ')}`);
  });
});
