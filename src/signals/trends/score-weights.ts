// The weights of the five signals in virality_score, in one place (docs/signals.md gives the reasons).
// Search momentum and news density weigh most: they measure attention across many independent people and
// newsrooms. The social signal is strong but narrower (each community leans to its own subjects, and Reddit
// and YouTube only count when configured). Novelty and quality adjust rather than create a trend.
import { SIGNAL_NAMES, NEUTRAL_QUALITY, type SignalName, type Signals } from './story-signals.ts';

export const SCORE_WEIGHTS: Readonly<Record<SignalName, number>> = {
  search_momentum: 0.25,
  news_density: 0.25,
  social_signal: 0.2,
  novelty: 0.15,
  quality: 0.15,
};

/** The weighted average of the five signals, 0–1. */
export function viralityScore(signals: Signals): number {
  let sum = 0;
  let weights = 0;
  for (const name of SIGNAL_NAMES) {
    sum += SCORE_WEIGHTS[name] * signals[name];
    weights += SCORE_WEIGHTS[name];
  }
  return sum / weights;
}

/**
 * The signals that lifted a story, largest weighted share first: search momentum, news density and the
 * social signal whenever the story has any such evidence; novelty while no age penalty applies; quality when
 * primary publishers raised it above neutral.
 */
export function contributingSignals(signals: Signals): SignalName[] {
  const lifted = (name: SignalName): boolean => {
    switch (name) {
      case 'search_momentum':
      case 'news_density':
      case 'social_signal':
        return signals[name] > 0;
      case 'novelty':
        return signals.novelty === 1;
      case 'quality':
        return signals.quality > NEUTRAL_QUALITY;
    }
  };
  return SIGNAL_NAMES.filter(lifted).sort(
    (a, b) => SCORE_WEIGHTS[b] * signals[b] - SCORE_WEIGHTS[a] * signals[a],
  );
}
