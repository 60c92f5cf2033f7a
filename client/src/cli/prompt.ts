import { createInterface } from 'node:readline/promises';

/** Asks a yes/no question on the terminal; anything but y/yes is a no. */
export async function confirm(question: string, signal?: AbortSignal): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `, signal ? { signal } : {});
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** A prompt needs a person at a terminal on both ends. */
export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}
