// Narration speed, shared by every engine: 1 is the voice's own normal rate, 1.3 speaks 30 % faster.

export const MIN_SPEED = 0.7;
export const MAX_SPEED = 1.3;

/** The speed itself; throws RangeError outside 0.7–1.3. */
export function checkSpeed(speed: number): number {
  if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
    throw new RangeError(`speed must be between ${MIN_SPEED} and ${MAX_SPEED}, got ${speed}`);
  }
  return speed;
}
