// A trend as the API answers it (spec 2 §2.1), every field.

export interface TrendPlatforms {
  shortsite_relevance: number;
  vidsite_relevance: number;
  proforum_relevance: number;
  photosite_relevance: number;
}

export interface Trend {
  /** Stable for the same story across refreshes. */
  id: string;
  topic: string;
  virality_score: number;
  /** 'breaking' | 'rising' | 'steady' (rules in docs/signals.md). */
  urgency: string;
  started_at: string;
  recency_hours: number;
  traffic_estimate: string;
  source_signals: string[];
  platforms: TrendPlatforms;
  sources: { title: string; url: string; domain: string }[];
}
