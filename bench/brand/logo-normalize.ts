import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { normalizeLogo } from '../../src/brand/logo/normalize-logo.ts';
import { drawLogo, type LogoDrawing } from '../../test/fixtures/logos/draw-logo.ts';
import { ownCpuSeconds } from '../support/cpu-time.ts';

// bench/brand: logo normalization (decode, white-box removal, trim, measure, colours, PNG encode) of a
// 2000×2000 logo, the way a kit's logo_url is processed once it is fetched.
//
//   node --import tsx bench/brand/logo-normalize.ts [--runs 10]
//
// The inputs are drawn first (not timed). Each case then runs in a fresh Node process, once to warm up and
// --runs times measured, so its memory is its own: wall milliseconds (min / median / max), CPU milliseconds
// per run (Node and libvips threads), peak RSS after the first run and after all of them (freed buffers are
// collected late, so repeated runs climb higher than one). A bare `node --import tsx` process is the baseline.

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, child: { type: 'string' } },
});
const runs = Number(values.runs);

interface CaseResult {
  times: number[];
  cpuMs: number;
  /** Peak RSS after the warm-up run alone, and after all runs (garbage collection lags behind). */
  firstRssMb: number;
  peakRssMb: number;
  output: string;
}

async function measure(file: string | null): Promise<CaseResult> {
  const bytes = file ? await readFile(file) : null;
  const run = async () => (bytes ? normalizeLogo(bytes) : null);
  const first = await run();
  const firstRssMb = process.resourceUsage().maxRSS / 1024;
  const times: number[] = [];
  const cpuBefore = ownCpuSeconds();
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  const m = first?.measurements;
  return {
    times,
    cpuMs: ((ownCpuSeconds() - cpuBefore) / runs) * 1000,
    firstRssMb,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    output: m ? `${m.width}×${m.height} ${m.background}` : '-',
  };
}

if (values.child !== undefined) {
  console.log(JSON.stringify(await measure(values.child === 'baseline' ? null : values.child)));
  process.exit(0);
}

const SIDE = 2000;
const cases: { name: string; drawing: Pick<LogoDrawing, 'box' | 'format'> }[] = [
  { name: 'PNG, white box', drawing: { box: '#FFFFFF', format: 'png' } },
  { name: 'PNG, transparent', drawing: { box: 'none', format: 'png' } },
  { name: 'JPEG, white box', drawing: { box: '#FFFFFF', format: 'jpeg' } },
  { name: 'WebP, white box', drawing: { box: '#FFFFFF', format: 'webp' } },
];

const self = new URL(import.meta.url).pathname;
const runChild = async (target: string): Promise<CaseResult> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', self, '--runs', String(runs), '--child', target],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as CaseResult;
};

const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-logo-'));
const rows: string[][] = [];
try {
  for (const { name, drawing } of cases) {
    const { bytes } = await drawLogo({
      width: SIDE,
      height: SIDE,
      ring: '#1E6FD9',
      bar: '#E4572E',
      scale: 4.4,
      ...drawing,
    });
    const file = join(dir, `${drawing.format}-${drawing.box === 'none' ? 'clear' : 'box'}`);
    await writeFile(file, bytes);
    const r = await runChild(file);
    const times = [...r.times].sort((a, b) => a - b);
    rows.push([
      name,
      `${(bytes.length / 1024).toFixed(0)} KB`,
      r.output,
      times[0]!.toFixed(0),
      times[Math.floor(times.length / 2)]!.toFixed(0),
      times[times.length - 1]!.toFixed(0),
      r.cpuMs.toFixed(0),
      `${r.firstRssMb.toFixed(0)} MB`,
      `${r.peakRssMb.toFixed(0)} MB`,
    ]);
  }
  const baseline = await runChild('baseline');
  rows.push(['(bare process)', '', '', '', '', '', '', '', `${baseline.peakRssMb.toFixed(0)} MB`]);
} finally {
  await rm(dir, { recursive: true, force: true });
}

const header = [
  'input 2000×2000',
  'size',
  'output',
  'min ms',
  'median ms',
  'max ms',
  'CPU ms/run',
  'RSS, 1 run',
  'peak RSS',
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(
  `logo normalization: ${runs} runs per case after one warm-up, one process per case, Node ${process.version}`,
);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(row));
