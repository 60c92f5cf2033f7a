import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../src/platform/config.ts';

// The image and compose file are not built here (no Docker daemon in the test environment), so they are kept
// honest by reading them: the image installs exactly what scripts/install-system-packages.sh installs (by
// running it), runs as a user without privileges, checks liveness, and compose sets only real settings.

const root = new URL('..', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const INSTALL_SCRIPT = 'scripts/install-system-packages.sh';

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions grouped by stage, with continuation lines joined and comments dropped. */
function dockerStages(text: string): Instruction[][] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const stages: Instruction[][] = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** The install script's package list: the `packages=( … )` array it hands to apt-get. */
function scriptPackages(text: string): string[] {
  const match = /^packages=\(([^)]*)\)/m.exec(text);
  assert.ok(match, `${INSTALL_SCRIPT} declares packages=( … )`);
  return match[1]!.trim().split(/\s+/);
}

/** Packages a shell command installs with apt-get/apt, options dropped. */
function aptInstalls(command: string): string[] {
  return [...command.matchAll(/\bapt(?:-get)?\s+(?:-\S+\s+)*install\s+([^;&|]*)/g)].flatMap((m) =>
    m[1]!.split(/\s+/).filter((word) => word && !word.startsWith('-')),
  );
}

void describe('Dockerfile', () => {
  const stages = dockerStages(read('Dockerfile'));
  const runtime = stages.at(-1)!;
  const packages = scriptPackages(read(INSTALL_SCRIPT));

  void test('is multi-stage on node:20-bookworm-slim', () => {
    assert.ok(stages.length >= 2, 'a build stage and a runtime stage');
    for (const stage of stages) assert.match(stage[0]!.args, /^node:20-bookworm-slim\b/);
  });

  void test('the runtime stage installs the system packages by running the install script', () => {
    assert.ok(packages.length > 5 && packages.includes('ffmpeg'), 'the script names the packages');
    assert.match(read(INSTALL_SCRIPT), /apt-get install [^\n]*"\$\{packages\[@\]\}"/);

    const copy = runtime.find((i) => i.keyword === 'COPY' && i.args.includes(INSTALL_SCRIPT));
    assert.ok(copy, 'the script is copied into the runtime stage');
    const destination = copy.args.split(/\s+/).at(-1)!;
    const target = destination.endsWith('/') ? `${destination}install-system-packages.sh` : destination;
    const runs = runtime.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    const installing = runs.find((command) => command.includes(target));
    assert.ok(installing, `a RUN executes ${target}`);
    assert.match(
      installing,
      new RegExp(`\\bbash ${target.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(\\s|$|&)`),
    );
    assert.doesNotMatch(installing, /--check-or-install/, 'a full install, not only a check');
  });

  void test('installs no system package the script does not name', () => {
    for (const stage of stages)
      for (const run of stage.filter((i) => i.keyword === 'RUN'))
        for (const name of aptInstalls(run.args))
          assert.ok(packages.includes(name), `${name} is installed outside ${INSTALL_SCRIPT}`);
  });

  void test('runs as a user without privileges, with a liveness HEALTHCHECK and node as the main process', () => {
    const user = runtime.filter((i) => i.keyword === 'USER').at(-1);
    assert.ok(user, 'the runtime stage sets USER');
    assert.doesNotMatch(user.args, /^(root|0)(:|$)/);
    const lastRun = runtime.findLastIndex((i) => i.keyword === 'RUN');
    assert.ok(runtime.indexOf(user) > lastRun, 'USER comes after the last RUN');

    const healthcheck = runtime.find((i) => i.keyword === 'HEALTHCHECK');
    assert.ok(healthcheck);
    assert.match(healthcheck.args, /\/api\/v1\/health\b/);

    const cmd = runtime.filter((i) => i.keyword === 'CMD').at(-1);
    assert.ok(cmd);
    assert.deepEqual(JSON.parse(cmd.args), ['node', 'build/cli/serve.js']);
  });

  void test('CI installs with the same script', () => {
    assert.match(read('.ci/run'), new RegExp(`bash ${INSTALL_SCRIPT.replace('.', '\\.')}`));
  });
});

void describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<
      string,
      { image?: string; command?: string[]; environment?: Record<string, string>; ports?: string[] }
    >;
  };
  const { services } = compose;

  void test('runs PostgreSQL, an S3-compatible server, one API and scalable workers', () => {
    assert.match(services.postgres?.image ?? '', /^postgres:/);
    assert.match(services.minio?.image ?? '', /minio/);
    assert.equal(services.api?.environment?.RUN_WORKER, '0');
    assert.deepEqual(services.worker?.command, ['node', 'build/cli/worker.js']);
    assert.equal(services.worker?.ports, undefined, 'a published port would stop --scale worker=3');
  });

  void test('wires the database and the bucket into both, with settings the service reads', () => {
    for (const name of ['api', 'worker']) {
      const env = services[name]!.environment!;
      assert.match(env.DATABASE_URL!, /@postgres:5432\//);
      assert.equal(env.S3_ENDPOINT, 'http://minio:9000');
      for (const variable of [
        'S3_BUCKET',
        'S3_REGION',
        'S3_ACCESS_KEY_ID',
        'S3_SECRET_ACCESS_KEY',
        'S3_FORCE_PATH_STYLE',
      ])
        assert.ok(env[variable], `${name} sets ${variable}`);
      for (const variable of Object.keys(env))
        assert.ok(
          CONFIG_VARIABLES.includes(variable),
          `${name} sets ${variable}, which the service does not read`,
        );
    }
  });
});
