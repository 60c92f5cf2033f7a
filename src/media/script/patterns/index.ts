// The pattern library per content purpose.
import type { ContentPurpose } from '../writer.ts';
import { awareness } from './awareness.ts';
import { caseStudy } from './case-study.ts';
import { education } from './education.ts';
import { entertainment } from './entertainment.ts';
import { news } from './news.ts';
import { productDemo } from './product-demo.ts';
import { sales } from './sales.ts';
import type { PurposeLibrary } from './types.ts';

export const LIBRARIES: Readonly<Record<ContentPurpose, PurposeLibrary>> = {
  education,
  sales,
  awareness,
  product_demo: productDemo,
  case_study: caseStudy,
  news,
  entertainment,
};
