import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAudioMeasureCommand, buildComposeCommand } from './compose-command.ts';
import type { ComposeSpec } from './compose-spec.ts';
import { bedSections, bedTiming } from '../music/timing.ts';

const FMT = 'aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';
const COVER = 'crop=w=min(iw\\,ih*9/16):h=min(ih\\,iw*16/9),scale=270:480,format=yuv420p,setsar=1';
const OUTPUT = [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '22',
  '-profile:v',
  'high',
  '-pix_fmt',
  'yuv420p',
  '-r',
  '30',
  '-g',
  '60',
  '-c:a',
  'aac',
  '-b:a',
  '160k',
  '-ar',
  '48000',
  '-ac',
  '2',
  '-t',
  '6',
  '-movflags',
  '+faststart',
  'out.mp4',
];

const FULL: ComposeSpec = {
  outputPath: 'out.mp4',
  width: 270,
  height: 480,
  durationSec: 6,
  scenes: [
    { path: 'a.mp4', inPoint: 1, duration: 3, hasAudio: true },
    { path: 'b.png', inPoint: 0, duration: 2 },
  ],
  narration: { path: 'n.wav', tempo: 1.1 },
  music: { path: 'm.mp3', volume: 0.25 },
  ass: { path: '/tmp/my subs/c.ass', fontsDir: '/usr/share/fonts/truetype' },
  logo: { path: 'logo.png' },
  watermark: { text: 'Reelsmith' },
  progressBar: { position: 'top', color: '#FF0000', heightPx: 4 },
  loudness: { gain: { gainDb: 3.456, limiter: true } },
};

// The music ducks under the narration and the scenes' own sound together.
const AUDIO_MIX = [
  `[2:a]${FMT},atempo=1.1,apad=whole_dur=6,atrim=duration=6,asplit=2[narr][narrkey]`,
  `[0:a]${FMT},apad,atrim=duration=3[sa0]`,
  'anullsrc=r=48000:cl=stereo,atrim=duration=3[sa1]',
  '[sa0][sa1]concat=n=2:v=0:a=1,atrim=duration=6,asplit=2[scene][scenekey]',
  `[3:a]${FMT},volume=0.25,afade=t=in:st=0:d=1,afade=t=out:st=4:d=2,atrim=duration=6[music]`,
  '[narrkey][scenekey]amix=inputs=2:duration=longest:normalize=0[duckkey]',
  '[music][duckkey]sidechaincompress=threshold=0.02:ratio=8:attack=20:release=350[ducked]',
  '[narr][scene][ducked]amix=inputs=3:duration=longest:dropout_transition=0:normalize=0[mix]',
];

describe('buildComposeCommand', () => {
  test('everything on: one graph, exact arguments', () => {
    const { args } = buildComposeCommand(FULL);
    const graph = [
      `[0:v]fps=30,${COVER},tpad=stop_mode=clone:stop_duration=3,trim=duration=3,setpts=PTS-STARTPTS[v0]`,
      // The image scene is stretched in time to fill the 6 s, 90 frames from one decoded frame.
      `[1:v]${COVER},loop=loop=89:size=1,setpts=N/30/TB[v1]`,
      '[v0][v1]concat=n=2:v=1:a=0[vcat]',
      '[vcat]subtitles=filename=/tmp/my\\\\\\ subs/c.ass:fontsdir=/usr/share/fonts/truetype[vsub]',
      '[4:v]scale=48:-2,format=yuva420p[logo]',
      '[vsub][logo]overlay=x=W-w-11:y=H-h-171:eval=init[vlogo]',
      '[vlogo]drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf:text=Reelsmith:expansion=none' +
        ':fontsize=9:fontcolor=white@0.6:borderw=1:bordercolor=black@0.4:x=23:y=63[vmark]',
      'color=c=0xFF0000:s=270x4:r=30,trim=end_frame=1[barsrc]',
      '[vmark][barsrc]overlay=x=-w+w*t/5.966667:y=0[vbar]',
      ...AUDIO_MIX,
      '[mix]volume=3.46dB,alimiter=limit=0.7499:attack=5:release=50:level=false:latency=true,afade=t=in:d=0.02[aout]',
    ];
    assert.deepEqual(args, [
      '-y',
      '-ss',
      '1',
      '-t',
      '3',
      '-i',
      'a.mp4',
      '-framerate',
      '30',
      '-i',
      'b.png',
      '-i',
      'n.wav',
      '-stream_loop',
      '-1',
      '-t',
      '6',
      '-i',
      'm.mp3',
      '-i',
      'logo.png',
      '-filter_complex',
      graph.join(';'),
      '-map',
      '[vbar]',
      '-map',
      '[aout]',
      ...OUTPUT,
    ]);
  });

  test('no sound source: a silent AAC track from anullsrc', () => {
    const { args } = buildComposeCommand({
      outputPath: 'out.mp4',
      width: 270,
      height: 480,
      durationSec: 6,
      scenes: [{ path: 'a.mp4', inPoint: 0, duration: 6 }],
    });
    assert.deepEqual(args, [
      '-y',
      '-t',
      '6',
      '-i',
      'a.mp4',
      '-filter_complex',
      `[0:v]fps=30,${COVER},tpad=stop_mode=clone:stop_duration=6,trim=duration=6,setpts=PTS-STARTPTS[v0];` +
        'anullsrc=r=48000:cl=stereo,atrim=duration=6[aout]',
      '-map',
      '[v0]',
      '-map',
      '[aout]',
      ...OUTPUT,
    ]);
  });

  test('narration only, unmeasured: single-pass loudnorm back at 48 kHz', () => {
    const { args } = buildComposeCommand({
      outputPath: 'out.mp4',
      width: 270,
      height: 480,
      durationSec: 6,
      scenes: [{ path: 'a.jpg', inPoint: 0, duration: 6 }],
      narration: { path: 'n.wav' },
    });
    const graph = args[args.indexOf('-filter_complex') + 1];
    assert.equal(
      graph,
      `[0:v]${COVER},loop=loop=179:size=1,setpts=N/30/TB[v0];` +
        `[1:a]${FMT},apad=whole_dur=6,atrim=duration=6[narr];` +
        '[narr]loudnorm=I=-14:TP=-1.5,aresample=48000[aout]',
    );
  });

  test('music only is not ducked; a plain gain needs no limiter', () => {
    const { args } = buildComposeCommand({
      outputPath: 'out.mp4',
      width: 270,
      height: 480,
      durationSec: 6,
      scenes: [{ path: 'a.png', inPoint: 0, duration: 6 }],
      music: { path: 'm.mp3', volume: 0.5, fadeInSec: 0, fadeOutSec: 1 },
      loudness: { gain: { gainDb: -2, limiter: false } },
    });
    const graph = args[args.indexOf('-filter_complex') + 1];
    assert.equal(
      graph,
      `[0:v]${COVER},loop=loop=179:size=1,setpts=N/30/TB[v0];` +
        `[1:a]${FMT},volume=0.5,afade=t=out:st=5:d=1,atrim=duration=6[music];` +
        '[music]volume=-2dB,afade=t=in:d=0.02[aout]',
    );
  });

  test('encoding options and a bottom progress bar', () => {
    const { args } = buildComposeCommand({
      outputPath: 'o.mp4',
      durationSec: 10,
      scenes: [{ path: 'a.mp4', inPoint: 0, duration: 10 }],
      progressBar: { position: 'bottom', color: '#00ff00' },
      encoding: { preset: 'faster', crf: 21, audioBitrateKbps: 128, threads: 2 },
    });
    const graph = args[args.indexOf('-filter_complex') + 1] ?? '';
    assert.match(
      graph,
      /color=c=0x00FF00:s=1080x8:r=30,trim=end_frame=1\[barsrc\];\[v0\]\[barsrc\]overlay=x=-w\+w\*t\/9\.966667:y=1912\[vbar\]/,
    );
    assert.deepEqual(args.slice(args.indexOf('-c:v')), [
      '-c:v',
      'libx264',
      '-preset',
      'faster',
      '-crf',
      '21',
      '-profile:v',
      'high',
      '-pix_fmt',
      'yuv420p',
      '-r',
      '30',
      '-g',
      '60',
      '-threads',
      '2',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ar',
      '48000',
      '-ac',
      '2',
      '-t',
      '10',
      '-movflags',
      '+faststart',
      'o.mp4',
    ]);
  });
});

describe('further outputs of the render', () => {
  test('a tap and a poster are fed by a split of the finished picture', () => {
    const { args } = buildComposeCommand(
      {
        outputPath: 'out.mp4',
        poster: { path: 'poster.jpg', atSec: 1.5 },
        width: 270,
        height: 480,
        durationSec: 6,
        scenes: [{ path: 'a.mp4', inPoint: 0, duration: 6 }],
      },
      { tap: 'fps=10,blackdetect' },
    );
    assert.deepEqual(args.slice(args.indexOf('-filter_complex') + 1, args.indexOf('-c:v')), [
      `[0:v]fps=30,${COVER},tpad=stop_mode=clone:stop_duration=6,trim=duration=6,setpts=PTS-STARTPTS[v0];` +
        'anullsrc=r=48000:cl=stereo,atrim=duration=6[aout];' +
        '[vtapin]fps=10,blackdetect[vtap];' +
        '[vposterin]trim=start_frame=45:end_frame=46[vposter];' +
        '[v0]split=3[vout][vtapin][vposterin]',
      '-map',
      '[vout]',
      '-map',
      '[aout]',
    ]);
    assert.deepEqual(args.slice(args.indexOf('out.mp4')), [
      'out.mp4',
      ...['-map', '[vtap]', '-t', '6', '-f', 'null', '-'],
      ...['-map', '[vposter]', '-frames:v', '1', '-q:v', '2', '-update', '1', 'poster.jpg'],
    ]);
  });

  test('a poster asked for past the end is the last frame', () => {
    const { args } = buildComposeCommand({
      outputPath: 'out.mp4',
      poster: { path: 'poster.jpg', atSec: 9 },
      width: 270,
      height: 480,
      durationSec: 2,
      scenes: [{ path: 'a.mp4', inPoint: 0, duration: 2 }],
    });
    assert.match(
      args.join(' '),
      /\[vposterin\]trim=start_frame=59:end_frame=60\[vposter\];\[v0\]split=2\[vout\]\[vposterin\]/,
    );
  });
});

describe('a library bed', () => {
  // 120 bpm, 2 s bars: a 4 s intro, a 16 s loop, a 4 s outro body (src/media/music/bed-graph.test.ts).
  const sections = bedSections(bedTiming({ bpm: 120, chordCount: 4, barsPerChord: 1 }));
  const BED: ComposeSpec = {
    outputPath: 'out.mp4',
    width: 270,
    height: 480,
    durationSec: 30,
    scenes: [{ path: 'a.png', inPoint: 0, duration: 30 }],
    narration: { path: 'n.wav' },
    music: {
      path: 'loop.m4a',
      bed: { introPath: 'intro.m4a', outroPath: 'outro.m4a', sections },
      volume: 0.3,
    },
    loudness: { gain: { gainDb: 2, limiter: false } },
  };
  /** The audio of BED, the narration at input `narration` and the bed's three files after it. */
  const bedMix = (narration: number) => [
    `[${narration}:a]${FMT},apad=whole_dur=30,atrim=duration=30,asplit=2[narr][narrkey]`,
    // 4 s of intro, 20 s of loop from its downbeat (entering 50 ms early to crossfade), 6 s of outro.
    `[${narration + 2}:a]${FMT},atrim=start_sample=765600:end_sample=1728000,asetpts=PTS-STARTPTS[bedloop]`,
    `[${narration + 1}:a]${FMT},atrim=start_sample=0:end_sample=192000,asetpts=PTS-STARTPTS[bedintro]`,
    '[bedintro][bedloop]acrossfade=ns=2400:c1=tri:c2=tri[bedhead]',
    `[${narration + 3}:a]${FMT},atrim=start_sample=0:end_sample=290400,asetpts=PTS-STARTPTS[bedoutro]`,
    '[bedhead][bedoutro]acrossfade=ns=2400:c1=tri:c2=tri[bedbody]',
    '[bedbody]afade=t=out:ss=1392000:ns=48000[bed]',
    // No fades of the composition's own: the bed starts and ends itself. It still ducks under the voice.
    '[bed]volume=0.3,atrim=duration=30[music]',
    '[music][narrkey]sidechaincompress=threshold=0.02:ratio=8:attack=20:release=350[ducked]',
    '[narr][ducked]amix=inputs=2:duration=longest:dropout_transition=0:normalize=0[mix]',
  ];
  const bedInputs = ['-i', 'intro.m4a', '-stream_loop', '-1', '-i', 'loop.m4a', '-i', 'outro.m4a'];

  test('the intro, the loop read round and round, and the outro, fitted to the video', () => {
    const { args } = buildComposeCommand(BED);
    const graph = args[args.indexOf('-filter_complex') + 1]?.split(';');
    assert.deepEqual(args.slice(1, args.indexOf('-filter_complex')), [
      ...['-framerate', '30', '-i', 'a.png'],
      ...['-i', 'n.wav'],
      ...bedInputs,
    ]);
    assert.deepEqual(graph, [
      `[0:v]${COVER},loop=loop=899:size=1,setpts=N/30/TB[v0]`,
      ...bedMix(1),
      '[mix]volume=2dB,afade=t=in:d=0.02[aout]',
    ]);
  });

  test('the loudness pass reads the same three files', () => {
    const command = buildAudioMeasureCommand(BED);
    assert.deepEqual(command?.args, [
      ...['-i', 'n.wav'],
      ...bedInputs,
      '-filter_complex',
      [...bedMix(0), '[mix]volume=2dB,ebur128=peak=true[measured]'].join(';'),
      ...['-map', '[measured]', '-f', 'null', '-'],
    ]);
  });

  test('too short for an outro: the loop from its downbeat, faded by the bed; asked fades still apply', () => {
    const { args } = buildComposeCommand({
      ...BED,
      durationSec: 7,
      scenes: [{ path: 'a.png', inPoint: 0, duration: 7 }],
      narration: undefined,
      music: { ...BED.music!, fadeInSec: 0.5 },
    });
    const graph = args[args.indexOf('-filter_complex') + 1]?.split(';');
    // The intro (input 1) and the outro (3) are opened but not played.
    assert.deepEqual(graph?.slice(1), [
      `[2:a]${FMT},atrim=start_sample=0:end_sample=336000,asetpts=PTS-STARTPTS[bedloop]`,
      '[bedloop]afade=t=out:ss=252000:ns=84000[bed]',
      '[bed]volume=0.3,afade=t=in:st=0:d=0.5,atrim=duration=7[music]',
      '[music]volume=2dB,afade=t=in:d=0.02[aout]',
    ]);
  });
});

describe('buildAudioMeasureCommand', () => {
  test('reads only sound inputs and ends in ebur128, including the planned gain stage', () => {
    const command = buildAudioMeasureCommand(FULL);
    assert.deepEqual(command?.args, [
      '-ss',
      '1',
      '-t',
      '3',
      '-i',
      'a.mp4',
      '-i',
      'n.wav',
      '-stream_loop',
      '-1',
      '-t',
      '6',
      '-i',
      'm.mp3',
      '-filter_complex',
      [
        ...AUDIO_MIX.map((f) => f.replace('[2:a]', '[1:a]').replace('[3:a]', '[2:a]')),
        '[mix]volume=3.46dB,alimiter=limit=0.7499:attack=5:release=50:level=false:latency=true,ebur128=peak=true[measured]',
      ].join(';'),
      '-map',
      '[measured]',
      '-f',
      'null',
      '-',
    ]);
  });

  test('without a gain stage it measures the raw mix', () => {
    const command = buildAudioMeasureCommand({ ...FULL, loudness: undefined });
    assert.match(command?.args.join(' ') ?? '', /\[mix\]ebur128=peak=true\[measured\]/);
  });

  test('null when nothing makes sound', () => {
    assert.equal(
      buildAudioMeasureCommand({
        outputPath: 'o.mp4',
        durationSec: 3,
        scenes: [{ path: 'a.mp4', inPoint: 0, duration: 3 }],
      }),
      null,
    );
  });
});
