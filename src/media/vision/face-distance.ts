// Comparing face descriptors: pure arithmetic, usable without loading the vision models.

/** Distance between two descriptors (Euclidean, descriptors L2-normalised: 0 identical … 2 opposite). */
export function faceDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`descriptor lengths differ: ${a.length} vs ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/**
 * Largest distance at which two faces count as one person. Measured by bench/vision/descriptors.ts on the real
 * photos the Human package ships: different photos of one man 0.60–0.92 apart (his four photos of known
 * identity; 0.41–0.96 over 229 pairs with 18 more photos of him labelled by eye), 3,194 pairs of different
 * people 0.91 and more (the closest: two women side by side in one photo). 0.85 accepts 86 % of those
 * same-person pairs and none of the different ones: a refused look costs another photo, an accepted stranger
 * puts someone else's face on the persona. A set this small cannot show how close a lookalike comes.
 */
export const SAME_PERSON_DISTANCE = 0.85;
