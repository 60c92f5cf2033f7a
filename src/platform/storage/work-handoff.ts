import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { MediaStore } from './media-store.ts';

// Files a request fetched while it was validated (uploads, a brand kit's logo, a source video) are staged on
// the API's disk. With a remote store the worker that renders the job may run on another machine: the files
// travel through the store under handoff/<job id>/ and are deleted once the job completes.

function handoffPrefix(jobId: string): string {
  return `handoff/${jobId}`;
}

/** Puts each job's staged work folder in the store and removes it from this disk; nothing to do for a local store. */
export async function handOffWorkFolders(
  store: MediaStore,
  folders: { jobId: string; workDir: string }[],
): Promise<void> {
  if (!store.remote) return;
  for (const { jobId, workDir } of folders) {
    const entries = await readdir(workDir, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const name = relative(workDir, path).split(sep).join('/');
      await store.put(`${handoffPrefix(jobId)}/${name}`, path);
    }
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Copies the files handed off for the job into its work folder on this machine (the ones not there yet). */
export async function receiveWorkFolder(
  store: MediaStore,
  jobId: string,
  workDir: string,
  signal?: AbortSignal,
): Promise<void> {
  if (!store.remote) return;
  const prefix = handoffPrefix(jobId);
  for (const key of await store.list(prefix)) {
    const target = join(workDir, ...key.slice(prefix.length + 1).split('/'));
    if (existsSync(target)) continue;
    const local = await store.fetchToLocal(key, signal);
    if (!local) continue;
    await mkdir(dirname(target), { recursive: true });
    await copyFile(local, target);
  }
}

/** Deletes the job's handed-off files once no attempt needs them. */
export async function dropHandoff(store: MediaStore, jobId: string): Promise<void> {
  if (store.remote) await store.remove(handoffPrefix(jobId));
}
