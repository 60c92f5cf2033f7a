// Counting words in any script: Intl.Segmenter finds word boundaries where there are no spaces
// (Japanese, Chinese, Thai), so length rules hold for every site.

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

export function countWords(text: string): number {
  let n = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) n += 1;
  return n;
}
