import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { MediaStore } from './media-store.ts';

// The footage and music library keeps its files at <LIBRARY_DIR>/<folder>/<file> (footage/, uploads/,
// provider/, music/). With a remote store each file is also kept at library/<folder>/<file>, so a worker on
// another machine reads a clip the database lists as ready even though another machine made or received it.

/** The store key of a library file, from its folder and name. */
export function libraryKey(path: string): string {
  return `library/${basename(dirname(path))}/${basename(path)}`;
}

/** Copies a library file of this machine into a remote store (before the database lists it as ready). */
export async function shareLibraryFile(store: MediaStore | undefined, path: string): Promise<void> {
  if (store?.remote) await store.put(libraryKey(path), path);
}

/** Deletes a library file's copy in a remote store. */
export async function unshareLibraryFile(store: MediaStore | undefined, path: string): Promise<void> {
  if (store?.remote) await store.remove(libraryKey(path));
}

/** A readable file for a library path the database gave: the path itself on the machine that has it, else the store's copy. */
export async function localLibraryFile(
  store: MediaStore | undefined,
  path: string,
  signal?: AbortSignal,
): Promise<string> {
  if (existsSync(path) || !store?.remote) return path;
  const local = await store.fetchToLocal(libraryKey(path), signal);
  if (!local)
    throw new Error(`the library file ${libraryKey(path)} is in neither this disk nor the media store`);
  return local;
}

/** Copies into place those of `paths` this machine lacks and a remote store has (files another machine made). */
export async function fetchLibraryFiles(
  store: MediaStore | undefined,
  paths: string[],
  signal?: AbortSignal,
): Promise<void> {
  if (!store?.remote) return;
  for (const path of paths) {
    if (existsSync(path)) continue;
    const copy = await store.fetchToLocal(libraryKey(path), signal);
    if (!copy) continue;
    await mkdir(dirname(path), { recursive: true });
    // Renamed into place: a process of this machine checking the file never sees half of it.
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await copyFile(copy, partial);
      await rename(partial, path);
    } finally {
      await rm(partial, { force: true });
    }
  }
}

/** Puts those of `paths` a remote store lacks. */
export async function shareMissingLibraryFiles(
  store: MediaStore | undefined,
  paths: string[],
): Promise<void> {
  if (!store?.remote) return;
  for (const path of paths)
    if (!(await store.exists(libraryKey(path)))) await store.put(libraryKey(path), path);
}
