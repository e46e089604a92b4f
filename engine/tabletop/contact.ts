/**
 * Contact for miniatures rulesets: the rectangle an attacker takes against a face of its target, and the face's
 * segment for the distance to contact. The ruleset passes the attacker's size and the gap left between them.
 */
import { type Rect, type Vec, fromLocal, rectCorners } from '../geometry/geometry.ts';

export type Face = 'front' | 'left' | 'right' | 'rear';

/**
 * The rectangle of an attacker `attW` wide and `attD` deep in contact with `face` of the target `r`: centred on the
 * face, `gap` off it, facing it. The centre is rounded to whole units.
 */
export function contactRect(r: Rect, face: Face, attW: number, attD: number, gap: number): Rect {
  let c: Vec;
  let h: number;
  switch (face) {
    case 'front':
      c = fromLocal(r, 0, r.d / 2 + attD / 2 + gap);
      h = r.h + 180;
      break;
    case 'rear':
      c = fromLocal(r, 0, -r.d / 2 - attD / 2 - gap);
      h = r.h;
      break;
    case 'left':
      c = fromLocal(r, -r.w / 2 - attD / 2 - gap, 0);
      h = r.h + 90;
      break;
    case 'right':
      c = fromLocal(r, r.w / 2 + attD / 2 + gap, 0);
      h = r.h + 270;
      break;
  }
  return { x: Math.round(c.x), y: Math.round(c.y), w: attW, d: attD, h: ((h % 360) + 360) % 360 };
}

/** The segment of a face of `r` (corners in the order front-left, front-right, rear-right, rear-left). */
export function faceSegment(r: Rect, face: Face): [Vec, Vec] {
  const c = rectCorners(r);
  switch (face) {
    case 'front':
      return [c[0]!, c[1]!];
    case 'right':
      return [c[1]!, c[2]!];
    case 'rear':
      return [c[2]!, c[3]!];
    case 'left':
      return [c[3]!, c[0]!];
  }
}
