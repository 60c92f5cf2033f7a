import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { detectFaces } from './faces.ts';
import {
  CEILING,
  cutToFile,
  MAN_AT_TABLE,
  SAMPLES,
  WOMAN_PORTRAIT,
} from '../../../test/support/sample-photos.ts';
import { PERSON_ALPHA, segmentPerson } from './segment.ts';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vision-segment-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('segmentPerson', () => {
  for (const [name, region, width] of [
    ['man at a table', MAN_AT_TABLE, 1442],
    ['woman portrait', WOMAN_PORTRAIT, 1032],
  ] as const) {
    test(`${name}: the face is inside the mask, the top corners are background`, async () => {
      const photo = await cutToFile(SAMPLES, region, dir, name.replaceAll(' ', '-'), { width });
      const result = await segmentPerson(photo);
      assert.ok(result, 'a person');
      const { mask, width: w, height: h, coverage } = result;
      assert.equal(mask.length, w * h);
      assert.equal(w, width);
      assert.ok(coverage > 0.15 && coverage < 0.8, `coverage ${coverage}`);
      const [face] = await detectFaces(photo);
      assert.ok(face);
      const cx = Math.round(face.box.x + face.box.width / 2);
      const cy = Math.round(face.box.y + face.box.height / 2);
      assert.ok(mask[cy * w + cx]! >= PERSON_ALPHA, `alpha at the face centre ${mask[cy * w + cx]}`);
      // The top corners (5 % squares) show the room behind the person.
      const side = Math.round(Math.min(w, h) * 0.05);
      for (const x0 of [0, w - side]) {
        let person = 0;
        for (let y = 0; y < side; y++)
          for (let x = x0; x < x0 + side; x++) if (mask[y * w + x]! >= PERSON_ALPHA) person++;
        assert.equal(person, 0, `person pixels in the corner at x=${x0}`);
      }
    });
  }

  test('no person in ffmpeg test patterns or a photo of a ceiling', async () => {
    for (const pattern of ['testsrc2', 'smptehdbars']) {
      const path = join(dir, `${pattern}.png`);
      await runFfmpeg(['-y', '-f', 'lavfi', '-i', `${pattern}=size=1280x720`, '-frames:v', '1', path]);
      assert.equal(await segmentPerson(path), null, pattern);
    }
    assert.equal(await segmentPerson(await cutToFile(SAMPLES, CEILING, dir, 'ceiling')), null);
  });
});
