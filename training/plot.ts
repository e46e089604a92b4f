/** `eagles train plot DIR`: the run's losses and win rates over iterations, as a self-contained SVG. */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { readModelMeta } from '../agents/neural/model.ts';
import { wilson } from '../arena/ratings.ts';
import { DEFAULT_TRAIN, RunError, readMetrics, readRunState, type Metrics } from './run.ts';

interface Series {
  readonly name: string;
  readonly colour: string;
  readonly points: readonly { x: number; y: number }[];
  /** Games behind each point of a score series: drawn as its 95% Wilson interval. */
  readonly games?: number;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function numberLabel(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/**
 * The x axis's ticks: its first value, then multiples of a round step (1, 2 or 5 × 10ⁿ, about ten of them). Both x
 * axes count whole things (iterations, Adam steps), so the step is never below 1 and every tick is a whole number.
 */
export function xTicks(minX: number, maxX: number): number[] {
  const first = Math.ceil(minX);
  if (maxX <= first) return [first];
  const raw = Math.max(1, (maxX - first) / 10);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((x) => x >= raw - 1e-12)!;
  const out = [first];
  for (let k = Math.ceil(first / step); k * step <= maxX + 1e-9; k++)
    if (k * step - first > step / 2) out.push(k * step);
  return out;
}

function panel(
  title: string,
  series: readonly Series[],
  x0: number,
  y0: number,
  w: number,
  h: number,
  yMin?: number,
  yMax?: number,
  xLabel = 'iteration',
  tick: (v: number) => string = numberLabel,
): string {
  const all = series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.y));
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const minX = xs.length ? Math.min(...xs) : 0;
  const maxX = xs.length ? Math.max(...xs, minX + 1) : 1;
  const lo = yMin ?? (ys.length ? Math.min(0, ...ys) : 0);
  const hi = yMax ?? (ys.length ? Math.max(...ys, lo + 1e-6) * 1.05 : 1);
  const px = (x: number) => x0 + 50 + ((x - minX) / (maxX - minX || 1)) * (w - 70);
  const py = (y: number) => y0 + h - 30 - ((y - lo) / (hi - lo || 1)) * (h - 60);
  const out: string[] = [];
  out.push(
    `<text x="${x0 + w / 2}" y="${y0 + 16}" text-anchor="middle" font-size="14" font-weight="bold">${esc(title)}</text>`,
  );
  out.push(`<line x1="${px(minX)}" y1="${py(lo)}" x2="${px(maxX)}" y2="${py(lo)}" stroke="#333"/>`);
  out.push(`<line x1="${px(minX)}" y1="${py(lo)}" x2="${px(minX)}" y2="${py(hi)}" stroke="#333"/>`);
  for (let i = 0; i <= 4; i++) {
    const v = lo + ((hi - lo) * i) / 4;
    out.push(`<text x="${px(minX) - 6}" y="${py(v) + 4}" text-anchor="end" font-size="10">${v.toFixed(2)}</text>`);
    out.push(`<line x1="${px(minX)}" y1="${py(v)}" x2="${px(maxX)}" y2="${py(v)}" stroke="#ddd"/>`);
  }
  for (const v of xTicks(minX, maxX))
    out.push(`<text x="${px(v)}" y="${py(lo) + 14}" text-anchor="middle" font-size="10">${esc(tick(v))}</text>`);
  out.push(`<text x="${x0 + w / 2}" y="${y0 + h - 2}" text-anchor="middle" font-size="11">${esc(xLabel)}</text>`);
  series.forEach((s, i) => {
    const pts = s.points.filter((p) => Number.isFinite(p.y));
    if (pts.length) {
      out.push(
        `<polyline fill="none" stroke="${s.colour}" stroke-width="2" points="${pts.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ')}"/>`,
      );
      for (const p of pts) {
        out.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="2.5" fill="${s.colour}"/>`);
        if (s.games) {
          const [lo95, hi95] = wilson(p.y * s.games, s.games);
          const x = (px(p.x) + (i - 1) * 3).toFixed(1); // series side by side, so their whiskers do not hide each other
          out.push(
            `<line class="ci" x1="${x}" y1="${py(lo95).toFixed(1)}" x2="${x}" y2="${py(hi95).toFixed(1)}" stroke="${s.colour}" stroke-opacity="0.45" stroke-width="1.5"/>`,
          );
        }
      }
    }
    out.push(`<rect x="${x0 + 60 + i * 150}" y="${y0 + 26}" width="10" height="10" fill="${s.colour}"/>`);
    out.push(`<text x="${x0 + 74 + i * 150}" y="${y0 + 35}" font-size="11">${esc(s.name)}</text>`);
  });
  return out.join('\n');
}

/**
 * The run's curves. With `games` (the run's --eval-games and --opponent-games), each score is drawn with its 95%
 * interval, so a rise that 40 games cannot tell from luck looks like one.
 */
export function plotSvg(
  metrics: readonly Metrics[],
  title: string,
  games?: { readonly vsBest: number; readonly vsOpponents: number },
): string {
  if (!metrics.length) throw new Error('no metrics to plot yet (the run has not finished an iteration)');
  const losses: Series[] = [
    { name: 'policy loss', colour: COLOURS[0]!, points: metrics.map((m) => ({ x: m.iteration, y: m.policyLoss })) },
    { name: 'value loss', colour: COLOURS[1]!, points: metrics.map((m) => ({ x: m.iteration, y: m.valueLoss })) },
  ];
  const opps = [...new Set(metrics.flatMap((m) => Object.keys(m.evalVs ?? {})))];
  const wins: Series[] = [
    {
      name: 'vs previous best',
      colour: COLOURS[2]!,
      games: games?.vsBest,
      points: metrics.filter((m) => m.evalVsBest !== undefined).map((m) => ({ x: m.iteration, y: m.evalVsBest! })),
    },
    ...opps.map((o, i) => ({
      name: `vs ${o}`,
      colour: COLOURS[(i + 3) % COLOURS.length]!,
      games: games?.vsOpponents,
      points: [
        // the untrained network, before the bootstrap, drawn one step left of iteration 0
        ...metrics
          .filter((m) => m.evalBefore?.[o] !== undefined)
          .map((m) => ({ x: m.iteration - 1, y: m.evalBefore![o]! })),
        ...metrics.filter((m) => m.evalVs?.[o] !== undefined).map((m) => ({ x: m.iteration, y: m.evalVs![o]! })),
      ],
    })),
  ];
  const untrained = metrics.some((m) => m.evalBefore);
  const tick = (v: number) => (untrained && v === -1 ? 'untrained' : numberLabel(v));
  const W = 760;
  const H = 300;
  // the bootstrap's own learning curve (iteration 0 of runs that record it), by Adam step
  const curve = metrics.find((m) => m.iteration === 0)?.bootstrapCurve ?? [];
  const boot: Series[] = [
    { name: 'policy loss', colour: COLOURS[0]!, points: curve.map((c) => ({ x: c.step, y: c.policy })) },
    { name: 'value loss', colour: COLOURS[1]!, points: curve.map((c) => ({ x: c.step, y: c.value })) },
  ];
  // a run that has only its bootstrap has one loss point per series, which the bootstrap panel already shows
  const lossPanel = !curve.length || metrics.some((m) => m.iteration > 0);
  const panels = 1 + (curve.length ? 1 : 0) + (lossPanel ? 1 : 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${panels * H + 40}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="15">${esc(title)}</text>`,
    ...(curve.length
      ? [
          panel(
            'bootstrap learning (iteration 0: imitating the scripted player)',
            boot,
            0,
            30,
            W,
            H,
            undefined,
            undefined,
            'Adam step',
          ),
        ]
      : []),
    ...(lossPanel ? [panel('training loss', losses, 0, 30 + (panels - 2) * H, W, H)] : []),
    panel(
      `evaluation score (1 = all won)${games ? ', with 95% intervals' : ''}`,
      wins,
      0,
      30 + (panels - 1) * H,
      W,
      H,
      0,
      1,
      untrained ? 'iteration (0: after the bootstrap)' : 'iteration',
      tick,
    ),
    '</svg>',
  ].join('\n');
}

/** What `eagles train plot DIR` draws: the metrics, a title naming the run (never its path) and the games per score. */
interface PlotInput {
  readonly metrics: Metrics[];
  readonly title: string;
  readonly games: { readonly vsBest: number; readonly vsOpponents: number };
}

/** A whole-number flag of a recorded `eagles train` command line, e.g. `--opponent-games 40`. */
function commandFlag(command: string | undefined, flag: string): number | undefined {
  const m = command?.match(new RegExp(`--${flag}[ =](\\d+)(?!\\S)`));
  return m ? Number(m[1]) : undefined;
}

/**
 * Read a folder for `train plot`: a training run (`run.json` and `metrics.jsonl`), or a shipped model
 * (`data/models/<ruleset>/<name>/`: `model.json`, whose metadata names the ruleset, scenario and training command,
 * beside the run's `metrics.jsonl`). The title is "ruleset / scenario: name", the name being the folder's own.
 */
export function plotInput(dir: string): PlotInput {
  const name = basename(resolve(dir));
  const metricsOf = () => {
    const metrics = readMetrics(dir);
    if (!metrics.length)
      throw new RunError(
        existsSync(join(dir, 'metrics.jsonl'))
          ? `no metrics to plot yet in ${dir} (the run has not finished an iteration)`
          : `${dir} has no metrics.jsonl, the training record the plot is drawn from`,
      );
    return metrics;
  };
  if (existsSync(join(dir, 'run.json'))) {
    const { options } = readRunState(dir);
    return {
      metrics: metricsOf(),
      title: `${options.ruleset} / ${options.scenario}: ${name}`,
      games: { vsBest: options.evalGames, vsOpponents: options.opponentGames },
    };
  }
  if (existsSync(join(dir, 'model.json'))) {
    const meta = readModelMeta(dir);
    return {
      metrics: metricsOf(),
      title: `${meta.ruleset} / ${meta.scenario}: ${name}`,
      games: {
        vsBest: commandFlag(meta.command, 'eval-games') ?? DEFAULT_TRAIN.evalGames,
        vsOpponents: commandFlag(meta.command, 'opponent-games') ?? DEFAULT_TRAIN.opponentGames,
      },
    };
  }
  throw new RunError(
    `${dir} is neither a training run (no run.json) nor a model folder (no model.json): train plot needs one of them`,
  );
}
