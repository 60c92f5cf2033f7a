// Local vision: faces, person segmentation and parallax plates on one TensorFlow.js WASM runtime, which lives in
// a child process that exits when idle (vision-process-client.ts).
export {
  detectFaces,
  releaseIdleVision,
  segmentPerson,
  stopVisionProcess,
  visionProcessId,
  visionProcessRunning,
} from './vision-process-client.ts';
export { faceDistance, SAME_PERSON_DISTANCE } from './face-distance.ts';
export type { Box, DetectFacesOptions, Face } from './faces.ts';
export { MIN_PERSON_COVERAGE, PERSON_ALPHA, type PersonMask } from './person-mask.ts';
export {
  makeParallaxPlates,
  FOREGROUND_MIN_ALPHA,
  type MaskInput,
  type ParallaxPlates,
} from './parallax-plates.ts';
export type { ImageInput, RawImage } from './image-input.ts';
export { VisionModelsMissingError } from './models-missing-error.ts';
