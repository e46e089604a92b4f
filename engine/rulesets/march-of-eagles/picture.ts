/**
 * The March of Eagles as a drawing (`Game.picture`, engine/core/picture.ts): the table in inches, its terrain (M4),
 * each battalion's footprint (M2) and skirmish screen (M3) with markers, its shooting bands [Range effect table] and
 * charge reach [Aggression] as front-arc reaches, the Supreme Commanders as point pieces, objectives as marks.
 * Perfect information: every viewer sees the same picture.
 */
import type { PicturePiece, TablePicture } from '../../core/picture.ts';
import { IN } from '../../geometry/geometry.ts';
import { Legend, circleReach, frontArcReach, pictureTerrain, tableFrame } from '../../tabletop/picture.ts';
import { firingGroups, footprint, halfStrength, maxRange, screenRectFor } from './shape.ts';
import { QUALITY_NAMES, scWith, unit } from './state.ts';
import type { Bn, MoeState, Side } from './types.ts';
import { objectiveHolder } from './winning.ts';

const SIDE_LETTER = ['A', 'B'] as const;
const SC_TEXT = "Supreme Commander: a point piece; as a battalion's marker, he is attached to it (Supreme Commander)";

const TERRAIN_TEXT: Record<string, string> = {
  woods: 'woods: difficult for close order, soft cover, blocks sight beyond 2" inside (M4)',
  building: 'building: impassable, hard cover, blocks sight (M4)',
  hill: 'hill: slopes up toward its crest (M4)',
  hedge: 'hedge: linear obstacle, soft cover within 1" behind it (M4, M5)',
  wall: 'wall: linear obstacle, hard cover within 1" behind it (M4, M5)',
};

/** [Aggression] an attack reaches 12" in line, 18" in column (M25). */
const chargeReach = (b: Bn) => (b.f === 'L' ? 12 : 18) * IN;
/** [Range effect table] band limits: 6" full, then half to 12" (rifles 18"), a quarter to 18" (rifles 24"). */
const bands = (b: Bn) => (b.rifles ? [6, 18, 24] : [6, 12, 18]);

function battalion(s: MoeState, b: Bn, lg: Legend, f: ReturnType<typeof tableFrame>): PicturePiece {
  const r = footprint(b);
  const m: string[] = [];
  m.push(b.f === 'L' ? lg.use('L', 'in line (M2)') : lg.use('C', 'in column (M2)'));
  if (b.brk) m.push(b.ral ? lg.use('RL', 'broken, rallied (Resolve)') : lg.use('BR', 'broken (Resolve)'));
  if (b.dis) m.push(lg.use('D', 'disordered (Disorder)'));
  if (b.reform) m.push(lg.use('RF', 'reforming from disorder (M12)'));
  if (b.eng) m.push(lg.use('E', 'engaged in a combat (Combat process)'));
  if (b.stand && b.stand >= s.turn) m.push(lg.use('ST', 'must stand (pass) this turn (M12)'));
  if (b.act) m.push(lg.use('A', 'activated this turn (Activation)'));
  if (halfStrength(b)) m.push(lg.use('½', 'at or below half strength: RESOLVE −1, frontage shrinks (M2)'));
  if (b.cas) m.push(lg.use(`-${b.cas}`, `${b.cas} figure${b.cas === 1 ? '' : 's'} lost (casualties)`));
  if (scWith(s, b)) m.push(lg.use('SC', SC_TEXT));
  if (b.off)
    m.push(lg.use('Off', 'Officer Character: re-rolls a failed Bravery check, +2 to RESOLVE (Character figures)'));
  if (b.ens) m.push(lg.use('Ens', 'Ensign Character: re-rolls a failed RESOLVE or rally check (Character figures)'));
  if (b.drum)
    m.push(
      lg.use(`Dr${b.drum}`, `${b.drum} Drummer${b.drum > 1 ? 's' : ''}: re-roll(s) of a failed Manoeuvre check a turn`),
    );
  if (b.sgt)
    m.push(lg.use(`Sg${b.sgt}`, `${b.sgt} Sergeant${b.sgt > 1 ? 's' : ''}: re-roll(s) of missed shooting dice a turn`));
  if (b.light) m.push(lg.use('Lt', 'Light battalion (Light troops)'));
  if (b.rifles) m.push(lg.use('Rf', 'armed with rifles: longer range bands (Light troops)'));
  const [b1, b2, b3] = bands(b);
  const chars = [
    b.off ? 'Officer' : '',
    b.ens ? 'Ensign' : '',
    b.drum ? `${b.drum} Drummer(s)` : '',
    b.sgt ? `${b.sgt} Sergeant(s)` : '',
  ].filter(Boolean);
  const status = [
    b.brk ? (b.ral ? 'broken, rallied' : 'BROKEN') : '',
    b.dis ? 'disordered' : '',
    b.eng ? `engaged (${b.eng})` : '',
  ].filter(Boolean);
  return {
    id: b.id,
    side: b.side,
    label: b.id,
    ...f.rect(r),
    markers: m,
    title:
      `${b.name} (${b.id}, ${SIDE_LETTER[b.side]}): ${QUALITY_NAMES[b.q]}${b.light ? ' light' : ''} battalion in ` +
      `${b.f === 'L' ? 'line' : 'column'}, ${b.rk}/${b.start} Rankers (${firingGroups(b)} firing groups)` +
      `${b.sk ? `, ${b.sk} skirmishers` : ''}${chars.length ? `, ${chars.join(', ')}` : ''}, facing ${b.h}°` +
      `${status.length ? `; ${status.join(', ')}` : ''}`,
    reach: [
      frontArcReach(f, r, b1! * IN, `shooting, full effect to ${b1}"`),
      frontArcReach(f, r, b2! * IN, `shooting, half effect to ${b2}"`),
      frontArcReach(f, r, maxRange(b.rifles), `shooting, quarter effect to ${b3}"`),
      frontArcReach(f, r, chargeReach(b), `attack reach ${chargeReach(b) / IN}" (${b.f === 'L' ? 'line' : 'column'})`),
    ],
  };
}

/** The skirmish screen of a battalion (M3), as its own piece with the id actions give it (`<battalion>.s`). */
function screen(b: Bn, lg: Legend, f: ReturnType<typeof tableFrame>): PicturePiece | null {
  const r = screenRectFor(b, footprint(b));
  if (!r) return null;
  return {
    id: `${b.id}.s`,
    side: b.side,
    label: lg.use('sk', 'skirmish screen (M3); its id is the battalion\'s with ".s"'),
    ...f.rect(r),
    markers: [],
    title: `${b.name}'s skirmish screen: ${b.sk} skirmishers (${Math.ceil(b.sk / 2)} groups), ${b.scr}`,
    reach: [frontArcReach(f, r, maxRange(b.rifles), `skirmishers' range ${maxRange(b.rifles) / IN}"`)],
  };
}

/** The March of Eagles picture of `s` (the same for every viewer: nothing is hidden). */
export function marchPicture(s: MoeState, _viewer?: number): TablePicture {
  const f = tableFrame(s.ctx.height);
  const lg = new Legend();
  const terrain = pictureTerrain(f, s.ctx.terrain, (k) => lg.use(k, TERRAIN_TEXT[k] ?? k));
  const pieces: PicturePiece[] = [];
  for (const b of s.units) {
    if (!b.on) continue;
    pieces.push(battalion(s, b, lg, f));
    const sp = screen(b, lg, f);
    if (sp) pieces.push(sp);
  }
  for (const side of [0, 1] as Side[]) {
    const sc = s.sides[side].sc;
    if (!sc.alive || !sc.placed) continue;
    const at = sc.att ? unit(s, sc.att) : sc;
    pieces.push({
      id: `SC-${SIDE_LETTER[side]}`,
      side,
      label: lg.use('SC', SC_TEXT),
      points: [f.pt(at)],
      markers: sc.moved ? [lg.use('MV', 'has made his free move this turn (M15)')] : [],
      title: `${s.sides[side].name}'s Supreme Commander${sc.att ? `, with ${unit(s, sc.att).name}` : ', alone'}`,
      reach: [circleReach(f, 24 * IN, 'free move up to 4D6" (at most 24", M15)')],
    });
  }
  const marks: { at: readonly [number, number]; label: string; side?: number }[] = [];
  for (const o of s.ctx.objectives) {
    const h = objectiveHolder(s, o);
    marks.push({
      at: f.pt(o),
      label: lg.use(
        `obj ${o.id}`,
        `objective "${o.id}": held by a side with an unbroken battalion within 3" and no enemy within 3"`,
      ),
      ...(h >= 0 ? { side: h } : {}),
    });
  }
  for (const a of s.ctx.terrain.areas)
    if (a.crest)
      marks.push({ at: f.pt(a.crest), label: lg.use('crest', "a hill's crest: the slope rises toward it (M4)") });
  return {
    kind: 'table',
    width: f.len(s.ctx.width),
    height: f.len(s.ctx.height),
    terrain,
    pieces,
    marks,
    legend: lg.entries(),
  };
}
