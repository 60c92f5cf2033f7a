// Parses the table printed by `espeak-ng --voices` and `espeak-ng --voices=variant`.

export type Gender = 'female' | 'male';

export interface EspeakVoiceEntry {
  /** Lower priority numbers are espeak's preferred voice for a language. */
  priority: number;
  /** Language/dialect code, e.g. "en-us", "cmn", "variant". */
  code: string;
  gender: Gender | null;
  name: string;
  /** Voice file relative to espeak-ng-data/voices, e.g. "gmw/en-US", "mb/mb-en1", "!v/f3". */
  file: string;
  /** Other language codes this voice serves, with their priorities, e.g. en-us also serves "en" at 3. */
  aliases: { code: string; priority: number }[];
}

// "Pty Language Age/Gender VoiceName File Other Languages"; names contain no spaces (espeak uses "_").
const ROW = /^\s*(\d+)\s+(\S+)\s+(?:\d+|--)\/([MF-])\s+(\S+)\s+(\S+)\s*(.*)$/;
const ALIAS = /\(([^\s()]+)\s+(\d+)\)/g;

export function parseEspeakVoiceList(text: string): EspeakVoiceEntry[] {
  const entries: EspeakVoiceEntry[] = [];
  for (const line of text.split('\n')) {
    const m = ROW.exec(line);
    if (!m) continue;
    const [, priority, code, gender, name, file, rest] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    entries.push({
      priority: Number(priority),
      code: code.toLowerCase(),
      gender: gender === 'F' ? 'female' : gender === 'M' ? 'male' : null,
      name: name.replaceAll('_', ' '),
      file,
      aliases: [...rest.matchAll(ALIAS)].map((a) => ({ code: a[1]!.toLowerCase(), priority: Number(a[2]) })),
    });
  }
  return entries;
}
