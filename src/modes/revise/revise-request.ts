// The body of POST /api/v1/jobs/{id}/revise (docs/revision.md).
import { z } from 'zod';
import { CAPTION_POSITIONS, CAPTION_PRESETS, FONT_SIZES, hexColor } from '../shared/field-schemas.ts';

export const MAX_SCENE_CHANGES = 60;

const sceneChangeSchema = z
  .strictObject({
    index: z
      .number()
      .int()
      .min(0)
      .describe('0-based scene (sentence) index, as in artifacts.revision.scenes.'),
    script_line: z
      .string()
      .trim()
      .min(1)
      .max(400)
      .optional()
      .describe("The scene's new sentence: narrated again in the same voice and captioned."),
    footage_keywords: z
      .array(z.string().trim().min(1).max(40))
      .min(1)
      .max(10)
      .optional()
      .describe('New footage for the scene, chosen from the library by these keywords.'),
    clip_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('New footage for the scene: this library clip (GET /api/stock-clips).'),
  })
  .refine((c) => c.script_line !== undefined || c.footage_keywords !== undefined || c.clip_id !== undefined, {
    message: 'must change script_line, footage_keywords or clip_id',
  })
  .refine((c) => c.footage_keywords === undefined || c.clip_id === undefined, {
    message: 'send footage_keywords or clip_id, not both',
  });

const captionStyleChange = z.union([
  z.enum(CAPTION_PRESETS).transform((preset) => ({ preset })),
  z.strictObject({
    preset: z.enum(CAPTION_PRESETS).optional(),
    text_color: hexColor.optional(),
    highlight_color: hexColor.optional(),
    position: z.enum(CAPTION_POSITIONS).optional(),
    font_size: z.enum(FONT_SIZES).optional(),
  }),
]);

const musicChange = z.union([
  z.boolean().transform((enabled) => ({ enabled })),
  z.strictObject({
    enabled: z.boolean().optional(),
    volume: z.number().min(0).max(1).optional(),
    track: z
      .enum(['same', 'new'])
      .optional()
      .describe('new: another library bed for the same niche; same (default): the bed the video has.'),
  }),
]);

export const reviseRequestSchema = z.strictObject({
  source_job_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a job id')
    .describe('The finished job to revise; taken from the path.'),
  scenes: z
    .array(sceneChangeSchema)
    .max(MAX_SCENE_CHANGES)
    .default([])
    .describe('Changes per scene; scenes not named are reused as they are.'),
  caption_style: captionStyleChange
    .optional()
    .describe(
      'New caption style for the whole video (fields not sent keep their value); every scene is rendered again.',
    ),
  music: musicChange
    .optional()
    .describe('Music on or off, its volume, or another bed; only the audio is remixed.'),
});

export type ReviseBody = z.infer<typeof reviseRequestSchema>;
export type SceneChange = ReviseBody['scenes'][number];

/** A validated revision: the body plus what validation learned from the job's plan. */
export type ReviseRequest = ReviseBody & {
  /** Scenes of the source video and how many of them are rendered again (what the price counts). */
  planned?: { scenes: number; rendered: number };
};
