// Local vision: faces, person segmentation and parallax plates on one TensorFlow.js WASM runtime.
export {
  detectFaces,
  faceDistance,
  SAME_PERSON_DISTANCE,
  type Box,
  type DetectFacesOptions,
  type Face,
} from './faces.ts';
export { segmentPerson, MIN_PERSON_COVERAGE, PERSON_ALPHA, type PersonMask } from './segment.ts';
export {
  makeParallaxPlates,
  FOREGROUND_MIN_ALPHA,
  type MaskInput,
  type ParallaxPlates,
} from './parallax-plates.ts';
export type { ImageInput, RawImage } from './image-input.ts';
export { VisionModelsMissingError } from './runtime.ts';
