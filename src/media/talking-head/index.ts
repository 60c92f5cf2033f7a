// The local talking-head engine (avatar_iii): a persona photo animated from a narration, as an ffmpeg source.
export {
  prepareTalkingHead,
  renderTalkingHead,
  type TalkingHeadFrame,
  type TalkingHeadInput,
} from './talking-head.ts';
export { planBlinks, type Blink } from './blinks.ts';
export type { FilterSource } from '../compose/filter-source.ts';
