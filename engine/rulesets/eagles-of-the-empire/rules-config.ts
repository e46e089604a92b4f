/**
 * The rules configuration (`rulesConfig`, the scenario's `options` block): every ADAPTATION of the digest (A-01…A-70)
 * is a named option whose default is the digest's reading, and the digest's named alternatives are options of their
 * own. A scenario (or a user editing one) may set:
 *
 * - `"A-nn": "digest"` for any adaptation: the digest's reading, the only one implemented for most of them;
 * - the named options below, each with its values; a value the engine does not implement (e.g. `legacyEdition: true`)
 *   is refused when the scenario is validated, naming the adaptation, never silently ignored.
 *
 * Pure data and lookups; the rules read their option through `option(sc, name)`.
 */
import { suggest } from '../../core/suggest.ts';
import type { Problem } from '../../core/game.ts';

/** Every adaptation of the digest (§8): id, title, the rules it reads. */
export const ADAPTATIONS: readonly (readonly [string, string, string])[] = [
  ['A-01', 'Dice Table: extent and missing cell', '[21.0]'],
  ['A-02', 'What "a 6" means with DRMs; the −1 bombardment floor', '[10.2, 12.1, 12.32, 14.12]'],
  ['A-03', 'Mixed modifiers inside one side', '[2.3 Modifier, 10.22, 12.31–12.32, 14.13, 14.21–14.22]'],
  ['A-04', 'Charge defence total', '[10.2, 3.1]'],
  ['A-05', 'Activation obligations and passing', '[8.1, 8.15, SoP]'],
  ['A-06', 'No army commander during activation', '[7.0, 8.1, 15.31]'],
  ['A-07', "Command status outside a formation's own Action Phase", '[9.0, 14.44, 15.2, 11.33]'],
  ['A-08', 'Enemy-HQ courier roll', '[9.12]'],
  ['A-09', '"Non-prohibited boundary" for command', '[9.1]'],
  ['A-10', 'Absolute command structure', '[3.32]'],
  ['A-11', 'Leader-rating selection and assistance scope', '[2.21, 3.1, 3.11, 18.4]'],
  ['A-12', 'Seniority ties', '[2.3]'],
  ['A-13', 'Lone leader timing', '[3.13]'],
  ['A-14', 'Charge composition and path', '[10.1, 13.11]'],
  ['A-15', 'Charge targets', '[10.1]'],
  ['A-16', 'Who allocates losses on the charging cavalry', '[10.3]'],
  ['A-17', '"More than half of their strength points"', '[10.4]'],
  ['A-18', 'Enfilade in charges', '[10.23]'],
  ['A-19', 'Second fire on repulse', '[10.51]'],
  ['A-20', 'Pursuit details', '[10.91–10.94]'],
  ['A-21', 'Grand Charge', '[10.8–10.83]'],
  ['A-22', 'Assignments without an HQ', '[11.1, 11.11]'],
  ['A-23', 'Attachment scope', '[11.2, 11.21–11.23, SoP]'],
  ['A-24', 'Bombardment details', '[12.1, 12.62, 12.71, 12.72, CMT]'],
  ['A-25', 'Range and elevation edge cases', '[12.4, 12.41–12.42, 12.55–12.57]'],
  ['A-26', 'LOS blocking generalisation', '[12.51–12.54, 12.56]'],
  ['A-27', 'Flank (+1) in bombardment', '[12.31]'],
  ['A-28', 'Reverse slope −1', '[12.32, 17.21]'],
  ['A-29', 'TEC and movement specifics', '[2.3, 13.1, 13.11, TEC]'],
  ['A-30', 'Road orientation', '[13.35]'],
  ['A-31', '"Enemy-occupied" for out-of-command units', '[9.4]'],
  ['A-32', 'Extended-line mechanics', '[16.0–16.9]'],
  ['A-33', 'Assault and attack eligibility', '[9.4, 14.x]'],
  ['A-34', 'Flank vs flank-or-rear in assault', '[14.21 vs CMT]'],
  ['A-35', 'Cavalry halving in assault stated twice', '[14.12, 14.21]'],
  ['A-36', 'Morale-twice DRM', '[14.22, CMT, 13.9 example]'],
  ['A-37', 'Combined arms scope', '[14.8, 14.13]'],
  ['A-38', 'Stand or retreat sequencing', '[14.4–14.44, 20.0]'],
  ['A-39', 'Artillery left behind', '[20.2, 14.5]'],
  ['A-40', 'Advance stacking', '[14.5]'],
  ['A-41', 'Massed column details', '[14.7–14.78]'],
  ['A-42', 'Loss-allocation formalisation', ''],
  ['A-43', 'Area-morale ties', '[18.0–18.5]'],
  ['A-44', 'Squares', '[17.1, 17.15–17.17]'],
  ['A-45', 'Reverse slope movement', '[17.21, 17.24]'],
  ['A-46', 'Rout specifics', '[19.0–19.31, 15.13]'],
  ['A-47', 'Retreat geometry', '[20.0]'],
  ['A-48', 'End-Step ordering and rally choice', '[15.1, SoP]'],
  ['A-49', 'Recovery eligibility', '[15.2]'],
  ['A-50', 'Replacement placement', '[15.3]'],
  ['A-51', 'Reinforcement specifics', '[6.0]'],
  ['A-52', 'Weather and time data', '[5.0, 2.4, 12.32]'],
  ['A-53', 'Victory', '[1.1, 15.22, 19.23]'],
  ['A-54', 'Staff-officer casualty modifiers', '[3.2, 3.21]'],
  ['A-55', 'Leader-casualty timing', '[3.2, 10.34]'],
  ['A-56', 'The HQ as an obstacle', '[13.12, 9.12]'],
  ['A-57', 'Grand-charge command', ''],
  ['A-58', 'Rifle exemption', '[14.21]'],
  ['A-59', 'Medium and irregular cavalry', '[2.22]'],
  ['A-60', 'Cross-reference errors and missing rules', ''],
  ['A-61', 'Charge start restriction', '[10.11]'],
  ['A-62', 'Charge defender composition', '[10.2]'],
  ['A-63', 'Reinforcements and charging', '[6.0]'],
  ['A-64', 'One attack per unit per turn', '[14.65, 10.7, 12.61]'],
  ['A-65', 'Deployments', '[11.3]'],
  ['A-66', 'Simultaneous Action Phase for multiple activations', '[8.14 vs SoP]'],
  ['A-67', 'Defender fire and terrain', '[14.12]'],
  ['A-68', 'Facing for high-angle fire', '[12.43]'],
  ['A-69', 'Pre-3rd-edition compatibility', '[12.62 note, 12.55 note, 2.22 edition note, 12.7 note]'],
  ['A-70', 'Bridges and fords', '[13.36]'],
];

export interface NamedOption {
  readonly adaptation: string;
  readonly values: readonly (string | boolean)[];
  readonly default: string | boolean;
  /** Values the engine plays; the others are refused at validation. */
  readonly implemented: readonly (string | boolean)[];
  readonly doc: string;
}

/** The digest's named options. */
export const NAMED_OPTIONS = {
  bombardNetMinusOne: {
    adaptation: 'A-02',
    values: ['literal', 'natural6Hits'],
    default: 'literal',
    implemented: ['literal', 'natural6Hits'],
    doc: 'bombardment at a net −1: no hits (literal, the text) or a natural 6 still hits',
  },
  attachSameFormation: {
    adaptation: 'A-23',
    values: ['horseOnly', 'all'],
    default: 'horseOnly',
    implemented: ['horseOnly', 'all'],
    doc: 'artillery attaches only within its own formation: horse artillery (the body text [11.22]) or all (the SoP card)',
  },
  highAngleCannotAttach: {
    adaptation: 'A-23',
    values: [false, true],
    default: false,
    implemented: [false, true],
    doc: 'mortars and rockets may not attach to long counters',
  },
  horseCountsForMassed: {
    adaptation: 'A-24',
    values: [false, true],
    default: false,
    implemented: [false, true],
    doc: 'horse artillery counts as artillery-type for massed fire [12.71] and counter-battery [12.72]',
  },
  licorneMinRange1: {
    adaptation: 'A-25',
    values: [false, true],
    default: false,
    implemented: [false, true],
    doc: 'licornes may also fire at range 1 (the text gives 2–3)',
  },
  assaultFlank: {
    adaptation: 'A-34',
    values: ['flankOrRear', 'flank'],
    default: 'flankOrRear',
    implemented: ['flankOrRear', 'flank'],
    doc: '−50% to a defending LC or artillery attacked through its flank or rear (the CMT) or through its flank only ([14.21])',
  },
  moraleTwice: {
    adaptation: 'A-36',
    values: ['atLeast', 'moreThan'],
    default: 'atLeast',
    implemented: ['atLeast', 'moreThan'],
    doc: "+1 when a side's area morale is at least twice the other's (the [13.9] example) or strictly more than twice",
  },
  legacyEdition: {
    adaptation: 'A-69',
    values: [false, true],
    default: false,
    implemented: [false, true],
    doc: 'pre-3rd-edition rules: a 4 SP bombardment limit [12.62 note] and no massed artillery (no +1 for five guns, no counter-battery) [12.7 note]; a "rise" is an area of elevation +1 and "heavy" keeps the old marking, both map and scenario data',
  },
} as const satisfies Record<string, NamedOption>;

export type OptionName = keyof typeof NAMED_OPTIONS;
export type OptionValue<N extends OptionName> = (typeof NAMED_OPTIONS)[N]['values'][number];

/** Problems with a scenario's `options` block, each at `$.options.<key>`. */
export function optionProblems(options: Readonly<Record<string, unknown>>): Problem[] {
  const out: Problem[] = [];
  const ids = new Map(ADAPTATIONS.map(([id, title]) => [id, title]));
  for (const [k, v] of Object.entries(options)) {
    const path = `$.options.${k}`;
    if (ids.has(k)) {
      if (v !== 'digest')
        out.push({
          path,
          message: `${k} (${ids.get(k)}): only the digest's reading is implemented; set it to "digest" or leave it out`,
        });
      continue;
    }
    const o = (NAMED_OPTIONS as Record<string, NamedOption>)[k];
    if (!o) {
      const near = suggest(k, [...Object.keys(NAMED_OPTIONS), ...ids.keys()]);
      out.push({
        path,
        message: near
          ? `unknown rules option "${k}" (did you mean "${near}"?)`
          : `unknown rules option "${k}" (known: ${Object.keys(NAMED_OPTIONS).join(', ')}, or an adaptation id A-01…A-70)`,
      });
      continue;
    }
    if (!o.values.includes(v as string | boolean))
      out.push({
        path,
        message: `${k} (${o.adaptation}) must be one of ${o.values.map((x) => JSON.stringify(x)).join(', ')}`,
      });
    else if (!o.implemented.includes(v as string | boolean))
      out.push({
        path,
        message: `${k} = ${JSON.stringify(v)} (${o.adaptation}: ${o.doc}) is not implemented; only ${o.implemented.map((x) => JSON.stringify(x)).join(', ')}`,
      });
  }
  return out;
}

/** The value of a named option for a validated scenario (its default when the scenario leaves it out). */
export function option<N extends OptionName>(
  sc: { readonly options: Readonly<Record<string, unknown>> },
  name: N,
): OptionValue<N> {
  const v = sc.options[name];
  return (v === undefined ? NAMED_OPTIONS[name].default : v) as OptionValue<N>;
}
