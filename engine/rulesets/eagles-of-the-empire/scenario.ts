/**
 * Eagles of the Empire scenario files: armies with their command structure [3.32], the order of battle as a tree of
 * formations and forces [2.2, 2.3] with leaders [2.22] and units with step tracks [2.3 Steps], HQ, Chief of Staff,
 * staff and line officers [9.5, 15.3], set-up with facings [13.9], the turn track and weather [2.4, 5.0],
 * reinforcements [6.0], special rules, and victory conditions (the series rules have none: A-53).
 *
 * The map is a separate file (engine/areas); a scenario names it and is validated against it. An accepted scenario is
 * one the engine can play: its set-up keeps each area's stacking limits and conformations [13.6–13.94] with the same
 * helpers the engine moves by (stacking.ts), both sides apart [13.12], deployments made at set-up and reinforcement
 * groups fitting their areas, data within the rules' ranges and the turn track, and unique ids. Step notation follows
 * the digest: "A5-5" is step A with strength 5 and morale 5; lower-case letters are short-counter steps; artillery
 * steps have no morale ("a2"), all artillery having morale 3 [2.21, 18.0].
 */
import type { Problem, Validated } from '../../core/game.ts';
import { validateWith } from '../../core/validate.ts';
import { optionProblems } from './rules-config.ts';
import type { AreaMap } from '../../areas/map.ts';
export * from './scenario-schema.ts';
import { formationsOf, parseStep, scenarioSchema, type Scenario, type Step } from './scenario-schema.ts';
import {
  idProblems,
  mapProblems,
  reinforcementGroupProblems,
  setupProblems,
  stepTrackProblems,
  turnProblems,
  victoryProblems,
} from './scenario-setup.ts';

function semantic(map: AreaMap) {
  return (s: Scenario): Problem[] => {
    const out: Problem[] = [];
    if (s.map !== map.id)
      out.push({ path: '$.map', message: `scenario is for map "${s.map}" but was checked against "${map.id}"` });
    const unitIds = new Map<string, string>();
    const leaderIds = new Map<string, string>();
    s.sides.forEach((side, si) => {
      const sp = `$.sides[${si}]`;
      side.leaders.forEach((l, i) => {
        if (leaderIds.has(l.id)) out.push({ path: `${sp}.leaders[${i}].id`, message: `duplicate leader id "${l.id}"` });
        leaderIds.set(l.id, `${sp}.leaders[${i}]`);
      });
      const mine = new Set(side.leaders.map((l) => l.id));
      const needLeader = (id: string | undefined, path: string, role?: string) => {
        if (id === undefined) return;
        if (!mine.has(id)) out.push({ path, message: `unknown leader "${id}" (not among ${side.name}'s leaders)` });
        else if (role && side.leaders.find((l) => l.id === id)!.role !== role)
          out.push({ path, message: `leader "${id}" must have role ${role}` });
      };
      needLeader(side.armyCommander, `${sp}.armyCommander`, 'armyCommander');
      needLeader(side.chiefOfStaff, `${sp}.chiefOfStaff`, 'chiefOfStaff');
      if (side.chiefOfStaff && !side.hq)
        out.push({ path: `${sp}.chiefOfStaff`, message: 'a Chief of Staff needs an HQ [9.5]' });
      side.staffOfficers.forEach((id, i) => needLeader(id, `${sp}.staffOfficers[${i}]`, 'staffOfficer'));
      side.lineOfficers.forEach((id, i) => needLeader(id, `${sp}.lineOfficers[${i}]`, 'lineOfficer'));
      const fids = new Set<string>();
      let hqFormations = 0;
      formationsOf(side).forEach(({ f }) => {
        const fp = `${sp}.formations(${f.id})`;
        if (fids.has(f.id)) out.push({ path: fp, message: `duplicate formation id "${f.id}"` });
        fids.add(f.id);
        if (f.kind === 'hq') hqFormations++;
        needLeader(f.leader, `${fp}.leader`);
        f.offMapLeaders.forEach((id, i) => needLeader(id, `${fp}.offMapLeaders[${i}]`, 'divisionBrigade'));
        if (f.reserve && f.kind !== 'hq')
          out.push({
            path: `${fp}.reserve`,
            message: 'reserve units belong to the HQ formation until assigned [11.1]',
          });
        f.units.forEach((u, i) => {
          const up = `${fp}.units[${i}]`;
          if (unitIds.has(u.id))
            out.push({ path: `${up}.id`, message: `duplicate unit id "${u.id}" (also ${unitIds.get(u.id)})` });
          unitIds.set(u.id, up);
          if (u.kind === 'infantry' && !u.counter)
            out.push({ path: `${up}.counter`, message: 'infantry needs counter: "long" or "short" [2.22]' });
          if (u.kind === 'cavalry' && !u.cavClass)
            out.push({
              path: `${up}.cavClass`,
              message: 'cavalry needs cavClass: heavy, medium, light or irregular [2.22]',
            });
          if (u.kind === 'artillery' && !u.artKind)
            out.push({
              path: `${up}.artKind`,
              message: 'artillery needs artKind: foot, heavy, horse, mortar, rocket or licorne [2.22]',
            });
          if (u.kind !== 'infantry' && u.steps.length > 2)
            out.push({ path: `${up}.steps`, message: `${u.kind} has at most two steps [2.3 Steps]` });
          if (u.startStep >= u.steps.length)
            out.push({ path: `${up}.startStep`, message: `start step ${u.startStep} is past the last step` });
          u.steps.forEach((t, j) => {
            const st = parseStep(t, u.kind);
            if (typeof st === 'string') out.push({ path: `${up}.steps[${j}]`, message: st });
          });
          if (
            u.counter === 'long' &&
            parseStep(u.steps[u.startStep] ?? '', 'infantry') instanceof Object &&
            (parseStep(u.steps[u.startStep]!, 'infantry') as Step).form !== 'long'
          )
            out.push({ path: `${up}.steps`, message: 'a long counter starts on a long (capital-letter) step' });
          out.push(...stepTrackProblems(u, up));
          if (u.extendedLines && !(u.kind === 'infantry' && u.counter === 'long'))
            out.push({
              path: `${up}.extendedLines`,
              message: 'only infantry long counters form extended lines [16.0]',
            });
          if (u.extendedLines && u.extendedLines.third === 1)
            out.push({
              path: `${up}.extendedLines.third`,
              message: '1/3 markers come in pairs: a single 1/3 marker may not be used [16.8]',
            });
        });
      });
      if (side.hq && hqFormations !== 1)
        out.push({
          path: `${sp}.formations`,
          message: `a side with an HQ has exactly one formation of kind "hq" (found ${hqFormations}) [9.5]`,
        });
      if (!side.hq && hqFormations)
        out.push({ path: `${sp}.hq`, message: 'an "hq" formation needs the side\'s hq entry' });
    });
    const side0Units = new Set(formationsOf(s.sides[0]).flatMap(({ f }) => f.units.map((u) => u.id)));
    const side1Units = new Set(formationsOf(s.sides[1]).flatMap(({ f }) => f.units.map((u) => u.id)));
    const sideUnits = [side0Units, side1Units];
    const placed = new Set<string>();
    const placedLeaders = new Set<string>();
    s.setup.forEach((list, si) =>
      list.forEach((p, i) => {
        const pp = `$.setup[${si}][${i}]`;
        if (!map.areas.has(p.area))
          out.push({ path: `${pp}.area`, message: `unknown area ${p.area} on map ${map.id}` });
        p.units.forEach((u, j) => {
          if (!sideUnits[si]!.has(u))
            out.push({ path: `${pp}.units[${j}]`, message: `unknown unit "${u}" for ${s.sides[si]!.name}` });
          if (placed.has(u)) out.push({ path: `${pp}.units[${j}]`, message: `unit "${u}" is placed twice` });
          placed.add(u);
        });
        p.leaders.forEach((l, j) => {
          if (!s.sides[si]!.leaders.some((x) => x.id === l))
            out.push({ path: `${pp}.leaders[${j}]`, message: `unknown leader "${l}" for ${s.sides[si]!.name}` });
          if (placedLeaders.has(l)) out.push({ path: `${pp}.leaders[${j}]`, message: `leader "${l}" is placed twice` });
          placedLeaders.add(l);
        });
        if (p.hq && !s.sides[si]!.hq) out.push({ path: `${pp}.hq`, message: `${s.sides[si]!.name} has no HQ` });
        for (const u of Object.keys(p.facing))
          if (!p.units.includes(u))
            out.push({ path: `${pp}.facing.${u}`, message: `facing given for "${u}", which is not placed here` });
      }),
    );
    s.setup.forEach((list, si) => {
      const hqs = list.flatMap((p, i) => (p.hq ? [i] : []));
      for (const i of hqs.slice(1))
        out.push({
          path: `$.setup[${si}][${i}].hq`,
          message: `${s.sides[si]!.name}'s HQ is already placed at $.setup[${si}][${hqs[0]}]: a side has one HQ [2.22, 9.5]`,
        });
    });
    const groupIds = new Set<string>();
    s.reinforcements.forEach((r, i) => {
      const rp = `$.reinforcements[${i}]`;
      if (groupIds.has(r.id)) out.push({ path: `${rp}.id`, message: `duplicate reinforcement group id "${r.id}"` });
      groupIds.add(r.id);
      if (!map.areas.has(r.area)) out.push({ path: `${rp}.area`, message: `unknown area ${r.area}` });
      r.leaders.forEach((l, j) => {
        if (!s.sides[r.side].leaders.some((x) => x.id === l))
          out.push({ path: `${rp}.leaders[${j}]`, message: `unknown leader "${l}" for ${s.sides[r.side].name}` });
        if (placedLeaders.has(l))
          out.push({
            path: `${rp}.leaders[${j}]`,
            message: `leader "${l}" is already placed at set-up or in another reinforcement [6.0]`,
          });
        placedLeaders.add(l);
      });
      if (r.turn > s.turns.length)
        out.push({
          path: `${rp}.turn`,
          message: `turn ${r.turn} is after the last turn (${s.turns.length}) [2.4, 6.0]`,
        });
      r.units.forEach((u, j) => {
        if (!sideUnits[r.side]!.has(u))
          out.push({ path: `${rp}.units[${j}]`, message: `unknown unit "${u}" for ${s.sides[r.side]!.name}` });
        if (placed.has(u))
          out.push({
            path: `${rp}.units[${j}]`,
            message: `unit "${u}" is already placed at set-up or in another reinforcement`,
          });
        placed.add(u);
      });
    });
    // alternate deployments [11.3]: the alternates are held off the map until the parent deploys them
    const ids = new Set<string>();
    s.sides.forEach((side, si) => {
      const held = new Set<string>();
      const def = (id: string) =>
        formationsOf(side)
          .flatMap(({ f }) => f.units)
          .find((u) => u.id === id);
      side.deployments.forEach((d, i) => {
        const dp = `$.sides[${si}].deployments[${i}]`;
        if (ids.has(d.id)) out.push({ path: `${dp}.id`, message: `duplicate deployment id "${d.id}"` });
        ids.add(d.id);
        const parent = def(d.parent);
        if (!parent) out.push({ path: `${dp}.parent`, message: `unknown unit "${d.parent}" for ${side.name}` });
        let k = 0;
        d.units.forEach((u, j) => {
          const c = def(u);
          if (!c) {
            out.push({ path: `${dp}.units[${j}]`, message: `unknown unit "${u}" for ${side.name}` });
            return;
          }
          if (u === d.parent || held.has(u))
            out.push({
              path: `${dp}.units[${j}]`,
              message: `unit "${u}" is already the parent or an alternate of a deployment`,
            });
          if (placed.has(u))
            out.push({
              path: `${dp}.units[${j}]`,
              message: `alternate "${u}" must not be set up or a reinforcement: it enters when deployed [11.31]`,
            });
          held.add(u);
          k += c.steps.length - c.startStep;
        });
        if (parent && parent.steps.length - parent.startStep <= k)
          out.push({
            path: `${dp}.units`,
            message: `${d.parent} has ${parent.steps.length - parent.startStep} steps: it cannot give up ${k} for its alternates and keep one [11.3]`,
          });
        if (d.atStart && parent && !s.setup[si]!.some((pl) => pl.units.includes(d.parent)))
          out.push({
            path: `${dp}.atStart`,
            message: `${d.parent} is not set up, so it cannot deploy at set-up [11.31]`,
          });
      });
      for (const u of held) placed.add(u);
    });
    out.push(
      ...mapProblems(map),
      ...idProblems(s),
      ...setupProblems(s, map),
      ...reinforcementGroupProblems(s, map),
      ...turnProblems(s),
      ...victoryProblems(s),
    );
    // every unit enters the game somewhere
    for (const [si, ids] of sideUnits.entries())
      for (const u of ids)
        if (!placed.has(u))
          out.push({
            path: `$.setup[${si}]`,
            message: `unit "${u}" is neither set up, nor a reinforcement, nor an alternate deployment`,
          });
    // the rules configuration: every ADAPTATION by name, with the digest's default (rules-config.ts)
    out.push(...optionProblems(s.options));
    // the series rules treat medium and irregular cavalry as light; other treatments need scenario rules
    if (!s.rules.mediumAsLight)
      out.push({
        path: '$.rules.mediumAsLight',
        message: 'A-59: medium cavalry other than light needs scenario special rules, which are not implemented',
      });
    if (!s.rules.irregularAsLight)
      out.push({
        path: '$.rules.irregularAsLight',
        message: 'A-59: irregular cavalry other than light needs scenario special rules, which are not implemented',
      });
    if (s.weather.table && s.weather.fromTurn === undefined)
      out.push({ path: '$.weather.fromTurn', message: 'a weather table needs fromTurn' });
    s.victory.objectives.forEach(
      (o, i) =>
        !map.areas.has(o.area) &&
        out.push({ path: `$.victory.objectives[${i}].area`, message: `unknown area ${o.area}` }),
    );
    if (s.victory.thresholds.decisive < s.victory.thresholds.marginal)
      out.push({ path: '$.victory.thresholds', message: 'decisive must be at least marginal' });
    return out;
  };
}

/** Validate scenario JSON against its map, listing every problem with its JSON path. */
export function validateScenario(json: unknown, map: AreaMap): Validated<Scenario> {
  return validateWith(scenarioSchema, json, semantic(map));
}
