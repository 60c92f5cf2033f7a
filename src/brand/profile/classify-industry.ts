// The industry of a site by TF-IDF: each industry of the table is a document of its keywords, the site's
// weighted text is the query; a keyword's weight falls with the number of industries that share it, and the
// industry whose keywords the site uses most (cosine-normalized) wins. Deterministic: ties go to the
// industry listed first.
import { stem, tokenize } from '../../media/footage/text-match.ts';
import { FALLBACK_INDUSTRY_ID, INDUSTRIES, type Industry } from './industries.ts';

interface Term {
  stems: string[];
  /** Inverse document frequency over the industries. */
  idf: number;
}

interface IndustryVector {
  industry: Industry;
  terms: Term[];
  norm: number;
}

/** Multi-word phrases are rarer and more telling than single words. */
const PHRASE_BOOST = 1.5;
/** Term frequency saturates: a word said on every line is not more telling than one said five times. */
const MAX_TF_WEIGHT = 2.5;

function stemsOf(text: string): string[] {
  return tokenize(text).map(stem);
}

let vectors: IndustryVector[] | undefined;

function industryVectors(): IndustryVector[] {
  if (vectors) return vectors;
  const keyed = INDUSTRIES.map((industry) => ({
    industry,
    keys: [...new Set(industry.keywords.map((k) => stemsOf(k).join(' ')).filter(Boolean))],
  }));
  const df = new Map<string, number>();
  for (const { keys } of keyed) for (const k of keys) df.set(k, (df.get(k) ?? 0) + 1);
  const n = INDUSTRIES.length;
  vectors = keyed.map(({ industry, keys }) => {
    const terms = keys.map((k) => {
      const stems = k.split(' ');
      return { stems, idf: Math.log(1 + n / (df.get(k) ?? 1)) * (stems.length > 1 ? PHRASE_BOOST : 1) };
    });
    return { industry, terms, norm: Math.sqrt(terms.reduce((s, t) => s + t.idf * t.idf, 0)) };
  });
  return vectors;
}

/** How many times each run of stems occurs in the text. */
function countRuns(text: string[], runs: readonly string[][]): Map<string, number> {
  const wanted = new Map<string, string[]>();
  for (const run of runs) wanted.set(run.join(' '), run);
  const byFirst = new Map<string, string[][]>();
  for (const run of wanted.values()) byFirst.set(run[0]!, [...(byFirst.get(run[0]!) ?? []), run]);
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length; i++) {
    for (const run of byFirst.get(text[i]!) ?? []) {
      if (run.every((s, j) => text[i + j] === s)) {
        const key = run.join(' ');
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  return counts;
}

export interface IndustryScore {
  id: string;
  score: number;
  /** The keywords that matched, most telling first. */
  matched: string[];
}

/** Every industry with a non-zero score, best first. */
export function rankIndustries(text: string): IndustryScore[] {
  const words = stemsOf(text);
  const all = industryVectors();
  const counts = countRuns(
    words,
    all.flatMap((v) => v.terms.map((t) => t.stems)),
  );
  const scored: IndustryScore[] = [];
  for (const v of all) {
    let dot = 0;
    const matched: { key: string; w: number }[] = [];
    for (const t of v.terms) {
      const tf = counts.get(t.stems.join(' ')) ?? 0;
      if (tf === 0) continue;
      // Sublinear, capped term frequency: the tenth mention of a word adds less than the second.
      const w = Math.min(1 + Math.log(tf), MAX_TF_WEIGHT) * t.idf * t.idf;
      dot += w;
      matched.push({ key: t.stems.join(' '), w });
    }
    if (dot > 0)
      scored.push({
        id: v.industry.id,
        score: dot / v.norm,
        matched: matched.sort((a, b) => b.w - a.w).map((m) => m.key),
      });
  }
  // Stable sort keeps the table's order between equal scores.
  return scored.sort((a, b) => b.score - a.score);
}

/** The best-matching industry id, or the general business-services row when nothing matches. */
export function classifyIndustry(text: string): string {
  return rankIndustries(text)[0]?.id ?? FALLBACK_INDUSTRY_ID;
}
