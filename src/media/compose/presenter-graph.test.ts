// The presenter layouts' ffmpeg arguments: where their inputs go, and the filters each layout adds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAudioMeasureCommand, buildComposeCommand } from './compose-command.ts';
import { resolveComposeSpec, type ComposeSpec } from './compose-spec.ts';
import type { FilterSource } from './filter-source.ts';
import type { LayoutAssets } from './layout-assets.ts';

const FMT = 'aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';

/** A source with two inputs, as the talking-head engine may hand over (frames and a matte). */
function source(width: number, height: number, hasAlpha: boolean, durationSec = 6): FilterSource {
  return {
    inputs: [
      ['-i', 'face.mp4'],
      ['-i', 'matte.mp4'],
    ],
    filter: ([a, b], out) => [`[${a}:v][${b}:v]alphamerge[${out}]`],
    width,
    height,
    fps: 30,
    durationSec,
    hasAlpha,
  };
}

const BASE: ComposeSpec = {
  outputPath: 'out.mp4',
  width: 360,
  height: 640,
  durationSec: 6,
  scenes: [
    { path: 'a.mp4', inPoint: 0, duration: 3 },
    { path: 'b.png', inPoint: 0, duration: 3 },
  ],
  narration: { path: 'n.wav' },
  logo: { path: 'logo.png' },
};

const ASSETS: LayoutAssets = {
  bubble: { mask: 'mask.png', ring: 'ring.png' },
  host: { style: 'card', image: 'card.png', glow: 'glow.png', url: 'url.png' },
  outro: 'outro.png',
};

function graphOf(args: string[]): string[] {
  const at = args.indexOf('-filter_complex');
  return args[at + 1]!.split(';');
}

describe('presenter layouts in the compose command', () => {
  test('creator bubble: inputs after the existing ones; the presenter framed, masked and laid over the B-roll', () => {
    const spec: ComposeSpec = { ...BASE, presenter: { layout: 'creator', source: source(300, 200, false) } };
    const { args } = buildComposeCommand(spec, { assets: ASSETS });
    const inputs = args.filter((_, i) => args[i - 1] === '-i');
    assert.deepEqual(inputs, [
      'a.mp4',
      'b.png',
      'n.wav',
      'logo.png',
      'face.mp4',
      'matte.mp4',
      'mask.png',
      'ring.png',
    ]);
    const box = resolveComposeSpec(spec).presenter!.geometry.presenter;
    const graph = graphOf(args);
    assert.ok(graph.includes('[4:v][5:v]alphamerge[psrc]'), 'the source’s own chain, on its inputs');
    assert.ok(
      graph.includes(
        `[psrc]crop=w=min(iw\\,ih*${box.width}/${box.height}):h=min(ih\\,iw*${box.height}/${box.width}),` +
          `scale=${box.width}:${box.height},format=yuv420p,setsar=1,trim=end_frame=180,setpts=PTS-STARTPTS[vpres]`,
      ),
      'brought to the box',
    );
    assert.ok(graph.includes('[vpres][bring]overlay=eval=init,format=yuva420p[vframed]'));
    assert.ok(graph.includes('[vframed][bmask]alphamerge[vbubble]'));
    assert.ok(graph.includes(`[vcat][vbubble]overlay=x=${box.x}:y=${box.y}:eval=init[vlay]`));
    // The corner logo moves to the top right.
    const logoTop = resolveComposeSpec(spec).presenter!.geometry.logoTop;
    assert.ok(graph.includes(`[vlay][logo]overlay=x=W-w-14:y=${logoTop}:eval=init[vlogo]`));
  });

  test('a cut-out at the box size is used as it is; a short one holds its last frame', () => {
    const resolved = resolveComposeSpec({
      ...BASE,
      presenter: { layout: 'creator', source: source(10, 10, true) },
    });
    const { width, height } = resolved.presenter!.geometry.presenter;
    const spec: ComposeSpec = {
      ...BASE,
      presenter: { layout: 'creator', source: source(width, height, true, 4) },
    };
    const graph = graphOf(buildComposeCommand(spec).args);
    assert.ok(
      graph.includes(
        '[psrc]tpad=stop_mode=clone:stop_duration=6,trim=end_frame=180,setpts=PTS-STARTPTS[vpres]',
      ),
    );
    assert.ok(graph.some((f) => f.startsWith('[vcat][vpres]overlay=x=0:')));
  });

  test('split: the B-roll scaled to the top half, stacked over the presenter', () => {
    const spec: ComposeSpec = { ...BASE, presenter: { layout: 'split', source: source(360, 320, false) } };
    const graph = graphOf(buildComposeCommand(spec).args);
    assert.ok(graph[0]!.includes('scale=360:320,'), 'scenes cover the top half');
    assert.ok(graph.includes('[vcat][vpres]vstack=inputs=2[vlay]'));
  });

  test('cutaway: each scene laid over the presenter during its interval only', () => {
    const spec: ComposeSpec = {
      ...BASE,
      width: 640,
      height: 360,
      presenter: {
        layout: 'cutaway',
        source: source(640, 360, false),
        cutawayIntervals: [
          [1, 2.5],
          [4, 5.2],
        ],
      },
    };
    const resolved = resolveComposeSpec(spec);
    assert.deepEqual(
      resolved.scenes.map((s) => s.duration),
      [1.5, 1.2],
    );
    const graph = graphOf(buildComposeCommand(spec).args);
    assert.ok(!graph.some((f) => f.includes('concat')), 'no back-to-back B-roll');
    assert.ok(graph.includes('[v0]setpts=PTS-STARTPTS+30/(30*TB)[cut0]'));
    assert.ok(
      graph.includes(
        "[vpres][cut0]overlay=eval=init:eof_action=pass:enable='between(t,0.983333,2.483333)'[vcut0]",
      ),
    );
    assert.ok(graph.includes('[v1]setpts=PTS-STARTPTS+120/(30*TB)[cut1]'));
    assert.ok(
      graph.includes(
        "[vcut0][cut1]overlay=eval=init:eof_action=pass:enable='between(t,3.983333,5.183333)'[vcut1]",
      ),
    );
  });

  test('talking head: no scene is read', () => {
    const spec: ComposeSpec = {
      ...BASE,
      presenter: { layout: 'talking_head', source: source(360, 640, false) },
    };
    const { args } = buildComposeCommand(spec);
    assert.ok(!args.includes('a.mp4') && !args.includes('b.png'));
    assert.ok(graphOf(args).includes('[2:v][3:v]alphamerge[psrc]'));
  });

  test('logo host card: its glow reads the narration a second time; the audio pass reads no picture', () => {
    const spec: ComposeSpec = {
      ...BASE,
      presenter: { layout: 'creator', host: { logoPath: 'brand.png', urlText: 'acme.example' } },
    };
    const { args } = buildComposeCommand(spec, { assets: ASSETS });
    const inputs = args.filter((_, i) => args[i - 1] === '-i');
    assert.deepEqual(inputs, ['a.mp4', 'b.png', 'n.wav', 'logo.png', 'card.png', 'glow.png', 'url.png']);
    const graph = graphOf(args);
    assert.ok(
      graph.some((f) => f.startsWith('[2:a]') && f.includes('showwaves=')),
      'loudness from the narration',
    );
    assert.ok(
      graph.some((f) => f.startsWith(`[2:a]${FMT}`)),
      'and the narration in the mix',
    );
    assert.ok(
      graph.some(
        (f) => f.startsWith('[4:v]format=yuva420p,loop=loop=89:size=1,') && f.includes('perspective='),
      ),
    );
    assert.deepEqual(
      buildAudioMeasureCommand(spec)!.args.filter((a) => a.endsWith('.png')),
      [],
    );
  });

  test('a composition needing pictures refuses to build without them', () => {
    assert.throws(
      () =>
        buildComposeCommand({ ...BASE, presenter: { layout: 'creator', source: source(300, 200, false) } }),
      /layout pictures/,
    );
  });

  test('outro: appended after the timeline; the narration stops at its end, the music runs to the last second', () => {
    const spec: ComposeSpec = {
      ...BASE,
      music: { path: 'm.mp3', volume: 0.3 },
      watermark: { text: 'Reelsmith' },
      presenter: { layout: 'creator', source: source(300, 200, true) },
      outro: { durationSec: 2.5, cta: 'Follow for more' },
    };
    const { args } = buildComposeCommand(spec, { assets: { ...ASSETS, bubble: null, host: null } });
    const graph = graphOf(args);
    assert.equal(args[args.indexOf('-t', args.indexOf('-filter_complex')) + 1], '8.5');
    assert.ok(graph.includes(`[2:a]${FMT},atrim=duration=6,apad=whole_dur=8.5,asplit=2[narr][narrkey]`));
    assert.ok(graph.some((f) => f.includes('afade=t=out:st=6.5:d=2')));
    assert.ok(graph.some((f) => f.startsWith('[7:v]format=yuv420p,setsar=1,loop=loop=74:size=1,')));
    assert.ok(
      graph.some((f) => f.startsWith('[vcard]drawtext=')),
      'the watermark stays on the card',
    );
    assert.ok(graph.includes('[vmark][voutro]concat=n=2:v=1:a=0[vend]'));
    assert.equal(args[args.indexOf('-map') + 1], '[vend]');
  });
});

describe('presenter spec rules', () => {
  const presenter = source(360, 640, false);
  const cases: [string, ComposeSpec, RegExp][] = [
    [
      'source and host',
      { ...BASE, presenter: { layout: 'creator', source: presenter, host: { logoPath: 'l.png' } } },
      /exactly one/,
    ],
    [
      'creator on a landscape frame',
      { ...BASE, width: 640, height: 360, presenter: { layout: 'creator', source: presenter } },
      /portrait/,
    ],
    [
      'placement off creator',
      { ...BASE, presenter: { layout: 'split', source: presenter, placement: 'bottom_left' } },
      /placement/,
    ],
    [
      'a cutaway per scene',
      { ...BASE, presenter: { layout: 'cutaway', source: presenter, cutawayIntervals: [[1, 2]] } },
      /one scene per/,
    ],
    [
      'overlapping cutaways',
      {
        ...BASE,
        presenter: {
          layout: 'cutaway',
          source: presenter,
          cutawayIntervals: [
            [1, 3],
            [2.5, 4],
          ],
        },
      },
      /overlaps/,
    ],
    [
      'no scenes for creator',
      { ...BASE, scenes: [], presenter: { layout: 'creator', source: presenter } },
      /at least one scene/,
    ],
    ['a long call to action', { ...BASE, outro: { cta: 'x'.repeat(41) } }, /40 characters/],
    ['a short outro', { ...BASE, outro: { cta: 'Follow', durationSec: 2 } }, /2.5–3/],
    ['an empty outro', { ...BASE, outro: {} }, /logo, a call to action or a URL/],
  ];
  for (const [name, spec, error] of cases)
    test(name, () => assert.throws(() => resolveComposeSpec(spec), error));

  test('the output lasts the timeline plus the outro', () => {
    const r = resolveComposeSpec({ ...BASE, outro: { cta: 'Follow' } });
    assert.equal(r.mainSec, 6);
    assert.equal(r.durationSec, 9);
  });
});
