import { CliError, EXIT } from './exit-codes.ts';

/** `npm start` listens on 127.0.0.1:8080 unless PORT and HOST say otherwise. */
export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

export interface ConnectionFlags {
  server?: string | undefined;
  key?: string | undefined;
}

/** --server, else REELSMITH_URL, else the local default. */
export function serverUrl(flags: ConnectionFlags, env: NodeJS.ProcessEnv): string {
  const url = flags.server ?? env.REELSMITH_URL ?? DEFAULT_SERVER;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new CliError(`--server / REELSMITH_URL must be an http(s) URL, got "${url}"`, EXIT.usage);
  }
  return url;
}

/** --key, else REELSMITH_API_KEY; refused early with the way to get one. */
export function apiKey(flags: ConnectionFlags, env: NodeJS.ProcessEnv): string {
  const key = flags.key ?? env.REELSMITH_API_KEY;
  if (!key)
    throw new CliError(
      'no API key: pass --key svc_… or set REELSMITH_API_KEY. `npm start` prints the keys of the default ' +
        'account on its first start; `npm run admin -- keys create --account ID` makes another.',
      EXIT.auth,
    );
  return key;
}
