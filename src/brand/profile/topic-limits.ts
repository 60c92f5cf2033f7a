// How many topics a brand profile's pool holds, apart from the pool builder (topic-pool.ts and its language
// library) so that the profile schema can state them without loading it.
export const MIN_TOPICS = 20;
export const MAX_TOPICS = 40;
