// Okapi BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) over
// documents given as lists of terms, for a query given as weighted terms. A term's contribution to a
// document's score is
//
//   qw(t) · idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl))
//
//   idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))   (never negative, as in Lucene)
//   qw(t)  = (k3 + 1) · w / (k3 + w)                  (the query side saturates like the document side)
//
// where tf is the term's count in the document, dl its length, avgdl the mean length, N the number of
// documents, n(t) how many hold the term, and w the term's weight in the query (its count there, possibly
// scaled by the field it came from). Scores are unbounded and depend on the corpus, so `unit` gives the
// contribution of one ordinary match — weight 1, found once, in a document of average length, held by no
// other document — for callers to measure scores against.

export interface Bm25Parameters {
  /** How quickly a term's repeated occurrences in a document stop adding (1.2: the customary value). */
  k1: number;
  /** How much a long document is discounted (0.75: the customary value). */
  b: number;
  /** How quickly a term's weight in the query stops adding. */
  k3: number;
}

export const BM25_PARAMETERS: Bm25Parameters = { k1: 1.2, b: 0.75, k3: 8 };

export interface TermContribution {
  term: string;
  score: number;
}

export interface Bm25Score {
  score: number;
  /** The query terms the document holds, largest contribution first (ties: the term, alphabetically). */
  matched: TermContribution[];
}

export class Bm25Index {
  private readonly counts: Map<string, number>[];
  private readonly lengths: number[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(
    documents: readonly (readonly string[])[],
    private readonly parameters: Bm25Parameters = BM25_PARAMETERS,
  ) {
    this.counts = documents.map((terms) => {
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const term of counts.keys())
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      return counts;
    });
    this.lengths = documents.map((terms) => terms.length);
    const total = this.lengths.reduce((sum, length) => sum + length, 0);
    this.averageLength = documents.length > 0 && total > 0 ? total / documents.length : 1;
  }

  get size(): number {
    return this.counts.length;
  }

  idf(term: string): number {
    const n = this.documentFrequency.get(term) ?? 0;
    return Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
  }

  /** The score of one ordinary match (see the top of this file): the scale scores are read against. */
  get unit(): number {
    return Math.log(1 + (this.size - 1 + 0.5) / 1.5);
  }

  queryWeight(weight: number): number {
    const { k3 } = this.parameters;
    return ((k3 + 1) * weight) / (k3 + weight);
  }

  score(query: ReadonlyMap<string, number>, document: number): Bm25Score {
    const counts = this.counts[document];
    if (!counts) throw new RangeError(`no document ${document}`);
    const { k1, b } = this.parameters;
    const norm = k1 * (1 - b + (b * this.lengths[document]!) / this.averageLength);
    const matched: TermContribution[] = [];
    for (const [term, weight] of query) {
      const tf = counts.get(term);
      if (!tf || weight <= 0) continue;
      const score = this.queryWeight(weight) * this.idf(term) * ((tf * (k1 + 1)) / (tf + norm));
      matched.push({ term, score });
    }
    matched.sort((x, y) => y.score - x.score || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0));
    return { score: matched.reduce((sum, m) => sum + m.score, 0), matched };
  }
}
