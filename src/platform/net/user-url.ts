import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';
import { checkUrlSyntax } from './url-syntax.ts';
import { UrlRejectedError } from './url-rejected-error.ts';

/**
 * The rules every user-supplied URL field meets when a request is validated, whether or not the service ever
 * fetches it: the outbound guard's own syntax and address rules (https only, no userinfo, no IP literal, no
 * internal name; see url-syntax.ts), without DNS. Request schemas are module constants and cannot take the
 * configured guard as an argument, so the guard opens a scope around each parse (UrlGuard.validating);
 * outside any scope the strict rules apply and loopback is refused.
 */
interface UserUrlRules {
  allowLoopback: boolean;
}

const activeRules = new AsyncLocalStorage<UserUrlRules>();

export function withUserUrlRules<T>(rules: UserUrlRules, run: () => T): T {
  return activeRules.run(rules, run);
}

/** Why `raw` is refused as a user-supplied URL, or undefined when the rules accept it. */
export function userUrlProblem(raw: string): string | undefined {
  try {
    checkUrlSyntax(raw, activeRules.getStore()?.allowLoopback ?? false);
    return undefined;
  } catch (error) {
    if (error instanceof UrlRejectedError) return error.message;
    throw error;
  }
}

/** The one schema of a user-supplied URL field (website, logo, assets, media, sources). */
export const userUrl = z.string().superRefine((value, ctx) => {
  const problem = userUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
