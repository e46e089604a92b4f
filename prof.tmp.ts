import seedrandom from 'seedrandom';
import { loadScenario } from './arena/catalog.ts';
const { game, scenario } = loadScenario('march-of-eagles', process.argv[2] ?? 'open-field');
const rng = seedrandom('x');
const times: Record<string, number> = {};
let plies = 0; const t0 = performance.now();
for (let g = 0; g < 3; g++) {
  let s = game.initialState(scenario);
  while (game.toMove(s).kind !== 'terminal') {
    const tm = game.toMove(s); let a;
    const top = s.stack.at(-1).t;
    const t1 = performance.now();
    if (tm.kind === 'chance') { const os = game.chanceOutcomes(s); let r = rng(); a = os[os.length-1].action; for (const o of os) { if (r < o.p) { a = o.action; break; } r -= o.p; } }
    else { const l = game.legalActions(s); a = l[Math.floor(rng()*l.length)]; }
    const t2 = performance.now();
    s = game.applyUnchecked(s, a); plies++;
    const t3 = performance.now();
    times['legal:'+top] = (times['legal:'+top] ?? 0) + t2 - t1;
    times['apply:'+top] = (times['apply:'+top] ?? 0) + t3 - t2;
  }
}
console.log('plies', plies, 'ms', (performance.now()-t0).toFixed(0));
console.log(Object.entries(times).sort((a,b)=>b[1]-a[1]).slice(0,12).map(([k,v])=>k+' '+v.toFixed(0)).join('\n'));
