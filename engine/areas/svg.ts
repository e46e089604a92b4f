/**
 * An area map drawn as SVG, for a person checking a map file: area polygons shaded by terrain with id, name and
 * elevation; LOS centres; boundary terrain drawn along the shared edges (slopes with a tick on the uphill side);
 * bridges and fords; roads and trails through the centres; diagonal crossings; map edges, all-around areas and tags.
 * Pure: returns the SVG text.
 */
import type { AreaId, AreaMap, Pt } from './map.ts';

const AREA_FILL: Record<string, string> = {
  clear: '#f4f1e1',
  woods: '#9cc58f',
  forest: '#86b77a',
  'special-foliage': '#b9d9a0',
  village: '#e0c9a6',
  hamlet: '#e6d3b5',
  town: '#cfa98a',
  city: '#c49372',
  swamp: '#a8c7c0',
};
const BOUNDARY_STROKE: Record<string, { colour: string; width: number; dash?: string }> = {
  river: { colour: '#2f6fb5', width: 5 },
  'minor-river': { colour: '#4a8ad0', width: 4 },
  stream: { colour: '#5aa0e0', width: 3 },
  brook: { colour: '#7ab8ea', width: 2 },
  slope: { colour: '#8a6d3b', width: 2, dash: '6 3' },
  escarpment: { colour: '#5b3a1a', width: 4 },
  'tree-line': { colour: '#2e7d32', width: 4, dash: '2 2' },
  hedgerow: { colour: '#6a9a3a', width: 3, dash: '4 2' },
  wall: { colour: '#555555', width: 3 },
  'defensive-works': { colour: '#444444', width: 3 },
};

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function hashColour(s: string): string {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `hsl(${h % 360}, 35%, 75%)`;
}

/** The stretches two polygons share (collinear overlapping edges). */
function sharedEdges(a: readonly Pt[], b: readonly Pt[], tol = 1e-6): [Pt, Pt][] {
  const out: [Pt, Pt][] = [];
  for (let i = 0; i < a.length; i++) {
    const p = a[i]!;
    const q = a[(i + 1) % a.length]!;
    const dx = q[0] - p[0];
    const dy = q[1] - p[1];
    const len2 = dx * dx + dy * dy;
    if (!len2) continue;
    for (let j = 0; j < b.length; j++) {
      const u = b[j]!;
      const v = b[(j + 1) % b.length]!;
      const c1 = Math.abs(dx * (u[1] - p[1]) - dy * (u[0] - p[0])) / Math.sqrt(len2);
      const c2 = Math.abs(dx * (v[1] - p[1]) - dy * (v[0] - p[0])) / Math.sqrt(len2);
      if (c1 > tol || c2 > tol) continue;
      const t1 = ((u[0] - p[0]) * dx + (u[1] - p[1]) * dy) / len2;
      const t2 = ((v[0] - p[0]) * dx + (v[1] - p[1]) * dy) / len2;
      const lo = Math.max(0, Math.min(t1, t2));
      const hi = Math.min(1, Math.max(t1, t2));
      if (hi - lo > 1e-9)
        out.push([
          [p[0] + dx * lo, p[1] + dy * lo],
          [p[0] + dx * hi, p[1] + dy * hi],
        ]);
    }
  }
  return out;
}

export function renderMapSvg(map: AreaMap, opts: { scale?: number; highlight?: readonly AreaId[] } = {}): string {
  const k = opts.scale ?? 10;
  const [W, H] = map.json.size;
  const X = (x: number) => (x * k).toFixed(1);
  const Y = (y: number) => (y * k).toFixed(1);
  const out: string[] = [];
  const pad = 20;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W * k + 2 * pad}" height="${H * k + 2 * pad + 60}" viewBox="${-pad} ${-pad} ${W * k + 2 * pad} ${H * k + 2 * pad + 60}" font-family="sans-serif">`,
  );
  out.push(`<title>${esc(map.json.title)} (${esc(map.id)})</title>`);
  out.push(`<rect x="${-pad}" y="${-pad}" width="${W * k + 2 * pad}" height="${H * k + 2 * pad + 60}" fill="white"/>`);
  const hl = new Set(opts.highlight ?? []);
  // areas
  for (const a of map.json.areas) {
    if (!a.polygon) continue;
    const fill = AREA_FILL[a.terrain[0]!] ?? hashColour(a.terrain[0]!);
    out.push(
      `<polygon points="${a.polygon.map(([x, y]) => `${X(x)},${Y(y)}`).join(' ')}" fill="${fill}" stroke="${hl.has(a.id) ? '#d00' : '#777'}" stroke-width="${hl.has(a.id) ? 3 : 1}"><title>${esc(`${a.id} ${a.name}: ${a.terrain.join(', ')}${a.special.length ? ` + ${a.special.join(', ')}` : ''}, elevation ${a.elev}, ${a.stack.class} (max ${a.stack.max} SP, ${a.stack.maxLC} LC)`)}</title></polygon>`,
    );
    if (a.edge.length) {
      const xs = a.polygon.map((p) => p[0]);
      const ys = a.polygon.map((p) => p[1]);
      for (const e of a.edge) {
        const seg: [number, number, number, number] =
          e === 'N'
            ? [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.min(...ys)]
            : e === 'S'
              ? [Math.min(...xs), Math.max(...ys), Math.max(...xs), Math.max(...ys)]
              : e === 'W'
                ? [Math.min(...xs), Math.min(...ys), Math.min(...xs), Math.max(...ys)]
                : [Math.max(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
        out.push(
          `<line x1="${X(seg[0])}" y1="${Y(seg[1])}" x2="${X(seg[2])}" y2="${Y(seg[3])}" stroke="#000" stroke-width="3"/>`,
        );
      }
    }
  }
  // side boundaries with terrain
  for (const b of map.json.boundaries) {
    if (b.kind !== 'side' || !b.terrain.length) continue;
    const pa = map.area(b.a).polygon;
    const pb = map.area(b.b).polygon;
    if (!pa || !pb) continue;
    const segs = sharedEdges(pa, pb);
    b.terrain.forEach((t, i) => {
      const st = BOUNDARY_STROKE[t] ?? { colour: hashColour(t), width: 3 };
      for (const [p, q] of segs) {
        // several kinds on one boundary are drawn side by side
        const off = (i - (b.terrain.length - 1) / 2) * 0.35;
        const dx = q[0] - p[0];
        const dy = q[1] - p[1];
        const l = Math.hypot(dx, dy) || 1;
        const nx = (-dy / l) * off;
        const ny = (dx / l) * off;
        out.push(
          `<line x1="${X(p[0] + nx)}" y1="${Y(p[1] + ny)}" x2="${X(q[0] + nx)}" y2="${Y(q[1] + ny)}" stroke="${st.colour}" stroke-width="${st.width}"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''}><title>${esc(`${b.a}|${b.b}: ${b.terrain.join(', ')}`)}</title></line>`,
        );
      }
    });
    if (b.up !== undefined) {
      // uphill tick: a short line from the boundary's middle into the uphill area
      for (const [p, q] of segs) {
        const m: Pt = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
        const c = map.area(b.up).center;
        const l = Math.hypot(c[0] - m[0], c[1] - m[1]) || 1;
        out.push(
          `<line x1="${X(m[0])}" y1="${Y(m[1])}" x2="${X(m[0] + ((c[0] - m[0]) / l) * 1.2)}" y2="${Y(m[1] + ((c[1] - m[1]) / l) * 1.2)}" stroke="#5b3a1a" stroke-width="2"><title>uphill: area ${b.up}</title></line>`,
        );
      }
    }
    if (b.bridge || b.ford) {
      const [p, q] = segs[0] ?? [map.area(b.a).center, map.area(b.b).center];
      out.push(
        `<text x="${X((p[0] + q[0]) / 2)}" y="${Y((p[1] + q[1]) / 2)}" font-size="11" font-weight="bold" text-anchor="middle" fill="#123">${b.bridge ? 'bridge' : 'ford'}</text>`,
      );
    }
  }
  // diagonal crossings with terrain
  for (const b of map.json.boundaries) {
    if (b.kind !== 'point' || !b.crossingTerrain.length) continue;
    const p = map.area(b.a).center;
    const q = map.area(b.b).center;
    out.push(
      `<line x1="${X(p[0])}" y1="${Y(p[1])}" x2="${X(q[0])}" y2="${Y(q[1])}" stroke="#5aa0e0" stroke-width="1" stroke-dasharray="1 3"><title>${esc(`${b.a}/${b.b} diagonal: ${b.crossingTerrain.join(', ')}`)}</title></line>`,
    );
  }
  // roads and trails
  for (const r of map.json.roads) {
    const pts = r.areas.map((id) => map.area(id).center);
    out.push(
      `<polyline points="${pts.map(([x, y]) => `${X(x)},${Y(y)}`).join(' ')}" fill="none" stroke="${r.kind === 'road' ? '#8b4513' : '#a0522d'}" stroke-width="${r.kind === 'road' ? 4 : 2}"${r.kind === 'trail' ? ' stroke-dasharray="6 4"' : ''} opacity="0.8"><title>${esc(`${r.kind} ${r.id}: ${r.areas.join('–')}`)}</title></polyline>`,
    );
  }
  // labels and centres
  for (const a of map.json.areas) {
    const [cx, cy] = a.center;
    out.push(`<circle cx="${X(cx)}" cy="${Y(cy)}" r="3" fill="#000"/>`);
    if (a.allAround)
      out.push(
        `<polygon points="${[0, 60, 120, 180, 240, 300].map((d) => `${X(cx + 1.6 * Math.cos((d * Math.PI) / 180))},${Y(cy + 1.6 * Math.sin((d * Math.PI) / 180))}`).join(' ')}" fill="none" stroke="#000" stroke-width="1.5"><title>all-around</title></polygon>`,
      );
    const circle =
      a.stack.class === 'circle2'
        ? '②'
        : a.stack.class === 'circle3'
          ? '③'
          : a.stack.class === 'town'
            ? `T${a.stack.maxLC}`
            : '';
    out.push(
      `<text x="${X(cx)}" y="${Y(cy - 2.2)}" font-size="13" font-weight="bold" text-anchor="middle">${a.id}${a.elev ? ` (${a.elev > 0 ? '+' : ''}${a.elev})` : ''} ${circle}</text>`,
    );
    out.push(`<text x="${X(cx)}" y="${Y(cy + 3.2)}" font-size="10" text-anchor="middle">${esc(a.name)}</text>`);
    if (a.tags.length)
      out.push(
        `<text x="${X(cx)}" y="${Y(cy + 4.4)}" font-size="9" text-anchor="middle" fill="#a00">${esc(a.tags.join(', '))}</text>`,
      );
  }
  // legend
  const ly = H * k + 20;
  const kinds = [...new Set(map.json.boundaries.flatMap((b) => b.terrain))];
  kinds.forEach((t, i) => {
    const st = BOUNDARY_STROKE[t] ?? { colour: hashColour(t), width: 3 };
    out.push(
      `<line x1="${i * 110}" y1="${ly}" x2="${i * 110 + 30}" y2="${ly}" stroke="${st.colour}" stroke-width="${st.width}"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''}/>`,
    );
    out.push(`<text x="${i * 110 + 34}" y="${ly + 4}" font-size="10">${esc(t)}</text>`);
  });
  const areaKinds = [...new Set(map.json.areas.map((a) => a.terrain[0]!))];
  areaKinds.forEach((t, i) => {
    out.push(
      `<rect x="${i * 110}" y="${ly + 14}" width="14" height="10" fill="${AREA_FILL[t] ?? hashColour(t)}" stroke="#777"/>`,
    );
    out.push(`<text x="${i * 110 + 18}" y="${ly + 23}" font-size="10">${esc(t)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
