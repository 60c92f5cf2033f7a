import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkQuality,
  fleschKincaidGrade,
  QUALITY_THRESHOLDS,
  type GateInput,
  type GateName,
} from './quality-gates.ts';

// Each gate against articles built to pass or fail it alone: the failing gate is named with its measured value
// and its threshold, and the others still pass.

const KEYWORD = 'compost bins';

/** A plain paragraph of about 40 words; `n` makes each one different. */
function prose(n: number): string {
  return (
    `Paragraph ${n} is about keeping a garden tidy. Turn the pile every week and keep it damp. ` +
    `Add dry leaves when it smells wet, and add green scraps when it looks dry. Small steps like these keep the heap healthy, number ${n}.`
  );
}

interface Shape {
  title?: string;
  meta?: string;
  intro?: string;
  h2?: string[];
  paragraphsPerSection?: number;
  extra?: string;
}

function article(shape: Shape = {}): GateInput {
  const title = shape.title ?? 'Compost Bins: A Practical Guide';
  const h2 = shape.h2 ?? ['Choosing compost bins', 'Filling the bin', 'Using the compost'];
  let n = 0;
  const sections = h2.map(
    (heading) =>
      `## ${heading}\n\n${Array.from({ length: shape.paragraphsPerSection ?? 3 }, () => prose(++n)).join('\n\n')}`,
  );
  const markdown = [
    `# ${title}`,
    shape.intro ??
      'Compost bins turn kitchen scraps into soil. This guide shows how to choose one and use it well.',
    ...sections,
    shape.extra ?? '',
  ].join('\n\n');
  return {
    markdown,
    title,
    metaDescription: shape.meta ?? 'How to choose, fill and use compost bins at home.',
    primaryKeyword: KEYWORD,
  };
}

function failedOnly(input: GateInput, gate: GateName) {
  const report = checkQuality(input);
  assert.deepEqual(report.failed, [gate], JSON.stringify(report.gates, null, 1));
  const result = report.gates.find((g) => g.gate === gate)!;
  assert.equal(result.passed, false);
  return result;
}

void describe('quality gates', () => {
  void test('a well-formed article passes every gate, in a fixed order', () => {
    const report = checkQuality(article());
    assert.equal(report.passed, true, JSON.stringify(report.gates, null, 1));
    assert.deepEqual(
      report.gates.map((g) => g.gate),
      ['length', 'heading_structure', 'keyword_placement', 'readability', 'unique_paragraphs'],
    );
    assert.ok(report.wordCount >= QUALITY_THRESHOLDS.minWords);
  });

  void test('length: under the word floor fails with the count and the floor', () => {
    const result = failedOnly(article({ paragraphsPerSection: 1 }), 'length');
    assert.deepEqual(result.threshold, { min_words: 300 });
    const words = (result.value as { words: number }).words;
    assert.ok(words > 100 && words < 300, String(words));
    assert.match(result.message, new RegExp(`${words} words; at least 300`));
  });

  void test('heading structure: two H1s, too few H2s, a skipped level and a title that is not first each fail', () => {
    const twoTitles = failedOnly(article({ extra: '# Another title' }), 'heading_structure');
    assert.equal((twoTitles.value as { h1: number }).h1, 2);

    const fewSections = article({
      h2: ['Choosing compost bins', 'Filling the bin'],
      paragraphsPerSection: 5,
    });
    const few = failedOnly(fewSections, 'heading_structure');
    assert.equal((few.value as { h2: number }).h2, 2);
    assert.deepEqual(few.threshold, { h1: 1, min_h2: 3, skipped_levels: 0 });

    const skipped = failedOnly(
      article({ extra: '#### Too deep\n\nA short note on depth.' }),
      'heading_structure',
    );
    assert.deepEqual((skipped.value as { skipped_levels: string[] }).skipped_levels, ['H2 → H4 "Too deep"']);

    const input = article();
    const late = failedOnly(
      { ...input, markdown: `## Before the title\n\n${input.markdown}` },
      'heading_structure',
    );
    assert.match(late.message, /not the first heading/);
  });

  void test('keyword placement: each missing place is named; plurals and case still match', () => {
    const noMeta = failedOnly(
      article({ meta: 'How to choose, fill and use a heap at home.' }),
      'keyword_placement',
    );
    assert.deepEqual(noMeta.value, {
      keyword: KEYWORD,
      title: true,
      first_paragraph: true,
      h2: true,
      meta_description: false,
    });
    assert.match(noMeta.message, /missing from: meta description/);

    const noIntro = failedOnly(article({ intro: 'Kitchen scraps can become soil.' }), 'keyword_placement');
    assert.equal((noIntro.value as Record<string, boolean>).first_paragraph, false);

    const noH2 = failedOnly(
      article({ h2: ['Choosing a bin', 'Filling it', 'Using the compost'] }),
      'keyword_placement',
    );
    assert.equal((noH2.value as Record<string, boolean>).h2, false);

    // "Compost Bin" (singular, title case) says the keyword "compost bins".
    assert.equal(checkQuality(article({ title: 'Your First Compost Bin' })).passed, true);
  });

  void test('readability: Flesch–Kincaid grade by its formula, and long academic sentences fail', () => {
    // 6 words, 6 syllables, 1 sentence: 0.39 × 6 + 11.8 × 1 − 15.59 = −1.45.
    assert.equal(fleschKincaidGrade('The cat sat on the mat.'), -1.4);
    // 8 words, 11 syllables ("garden", "water", "daily" two each), 2 sentences: 1.56 + 16.225 − 15.59 = 2.195.
    assert.equal(fleschKincaidGrade('The garden is green. We water it daily.'), 2.2);
    const dense =
      'Institutional decomposition methodologies necessitate comprehensive consideration of heterogeneous organic constituents, ' +
      'environmental stratification, microbiological colonization dynamics and anthropogenic contamination characteristics throughout the composting continuum.';
    const denseParagraphs = [
      'Institutional',
      'Municipal',
      'Regional',
      'Agricultural',
      'Industrial',
      'Residential',
    ].map((word) => dense.replace('Institutional', word));
    const result = failedOnly(
      article({ paragraphsPerSection: 2, extra: denseParagraphs.join('\n\n') }),
      'readability',
    );
    assert.ok((result.value as { flesch_kincaid_grade: number }).flesch_kincaid_grade > 12);
    assert.deepEqual(result.threshold, { max_grade: 12 });
  });

  void test('unique paragraphs: a repeated paragraph fails, even with other punctuation; a repeated short line does not', () => {
    const repeated = failedOnly(article({ extra: `${prose(1).toUpperCase()}!` }), 'unique_paragraphs');
    assert.equal((repeated.value as { repeated: number }).repeated, 1);
    assert.equal(checkQuality(article({ extra: '- Yes.\n- Yes.' })).passed, true);
  });

  void test('list items and quotes are prose: they count as words and as paragraphs', () => {
    const listed = article({ paragraphsPerSection: 1 });
    const bullets = Array.from({ length: 12 }, (_, i) => `- ${prose(100 + i)}`).join('\n');
    assert.equal(checkQuality({ ...listed, markdown: `${listed.markdown}\n\n${bullets}` }).passed, true);
    const quoted = `> ${prose(1)}`;
    failedOnly({ ...article(), markdown: `${article().markdown}\n\n${quoted}` }, 'unique_paragraphs');
  });
});
