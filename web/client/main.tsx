/**
 * The web table's page (Preact): the lobby, a game at the table, and the replay viewer. It draws what the server sends
 * (`../protocol.ts`) and knows no ruleset: a table is drawn from the ruleset's picture (`engine/core/picture.ts`), or
 * shown as the ruleset's text picture when it has none. Every offered action is a button carrying
 * `data-action-key`; the board carries `data-ruleset` and `data-ply` (hooks for tests and scripts).
 */
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { MapPicture, Picture, PicturePiece, PictureReach, TablePicture } from '../../engine/core/picture.ts';
import type { OfferView, StepView, TableView } from '../protocol.ts';

type View = TableView & { readonly id: string; readonly failure?: string };

interface RulesetInfo {
  id: string;
  title: string;
  players: string[];
  defaultScenario: string;
  scenarios: string[];
}

const SIDE_COLOURS = ['#2b5cab', '#b33a3a', '#4a8a3a', '#8a5aa8'];
const TERRAIN_FILL: Record<string, string> = {
  woods: '#9cc58f',
  wood: '#9cc58f',
  forest: '#86b77a',
  orchard: '#b9d9a0',
  hill: '#e2d3a8',
  slope: '#e2d3a8',
  town: '#cfa98a',
  village: '#e0c9a6',
  building: '#c49372',
  buildings: '#c49372',
  block: '#c49372',
  marsh: '#a8c7c0',
  mud: '#b8a98a',
  swamp: '#a8c7c0',
  field: '#efe6b0',
  fields: '#efe6b0',
  rough: '#d6cfb8',
  lake: '#9cc3e6',
  water: '#9cc3e6',
};
const LINE_STROKE: Record<string, [string, number]> = {
  river: ['#2f6fb5', 0.6],
  stream: ['#5aa0e0', 0.35],
  road: ['#8a6d3b', 0.35],
  track: ['#a88d5b', 0.25],
  wall: ['#555', 0.3],
  hedge: ['#4a7a2a', 0.35],
  bridge: ['#5b3a1a', 0.6],
  ford: ['#7ab8ea', 0.5],
};

const firstWord = (s: string) => s.split(/[\s-]/)[0]!.toLowerCase();
const pts = (p: readonly (readonly [number, number])[]) => p.map(([x, y]) => `${x},${y}`).join(' ');

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const r = await fetch(path, init);
  const body = await r.json().catch(() => ({ error: `${r.status} ${r.statusText}` }));
  if (!r.ok) throw new Error((body as { error?: string }).error ?? `${r.status}`);
  return body as T;
}

/** Does an action name this piece? (its id as a whole word of the key or the description) */
function names(o: OfferView, id: string): boolean {
  const re = new RegExp(`(^|[^\\w-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`);
  return re.test(o.key) || re.test(o.text);
}

// ---------------------------------------------------------------------------------------------------------------------
// The board
// ---------------------------------------------------------------------------------------------------------------------

function centre(p: PicturePiece): [number, number] {
  const n = p.points.length;
  return [p.points.reduce((a, q) => a + q[0], 0) / n, p.points.reduce((a, q) => a + q[1], 0) / n];
}

function reachShape(r: PictureReach, at: [number, number], key: number) {
  const [cx, cy] = r.from ? [r.from[0], r.from[1]] : at;
  if (!r.arc)
    return (
      <circle
        key={key}
        cx={cx}
        cy={cy}
        r={r.radius}
        fill="rgba(240,160,0,.08)"
        stroke="#f0a000"
        stroke-width={0.15}
        stroke-dasharray="0.6 0.4"
      />
    );
  const pt = (deg: number) => {
    const a = (deg * Math.PI) / 180;
    return [cx + r.radius * Math.sin(a), cy - r.radius * Math.cos(a)] as const;
  };
  const [a0, a1] = r.arc;
  const sweep = (((a1 - a0) % 360) + 360) % 360 || 360;
  const [x0, y0] = pt(a0);
  const [x1, y1] = pt(a0 + sweep);
  const d = `M ${cx} ${cy} L ${x0} ${y0} A ${r.radius} ${r.radius} 0 ${sweep > 180 ? 1 : 0} 1 ${x1} ${y1} Z`;
  return <path key={key} d={d} fill="rgba(240,160,0,.1)" stroke="#f0a000" stroke-width={0.15} />;
}

/** A piece on the board is a button: a click, Enter or Space selects it (its actions are listed), again unselects. */
function pickable(pick: () => void) {
  return {
    onClick: (e: Event) => {
      e.stopPropagation();
      pick();
    },
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        pick();
      }
    },
  } as const;
}

function TableBoard(props: { pic: TablePicture; selected?: string; onPick: (id: string | undefined) => void }) {
  const { pic } = props;
  const [hover, setHover] = useState<string | undefined>();
  const grid = [];
  for (let x = 0; x <= pic.width; x += 6)
    grid.push(
      <line key={`x${x}`} x1={x} y1={0} x2={x} y2={pic.height} stroke={x % 12 ? '#eee' : '#ddd'} stroke-width={0.08} />,
    );
  for (let y = 0; y <= pic.height; y += 6)
    grid.push(
      <line key={`y${y}`} x1={0} y1={y} x2={pic.width} y2={y} stroke={y % 12 ? '#eee' : '#ddd'} stroke-width={0.08} />,
    );
  const ruler = [];
  for (let x = 0; x <= pic.width; x += 12)
    ruler.push(<text key={`rx${x}`} x={x + 0.2} y={1} font-size={0.9} fill="#999">{`${x}"`}</text>);
  for (let y = 12; y <= pic.height; y += 12)
    ruler.push(<text key={`ry${y}`} x={0.2} y={y - 0.2} font-size={0.9} fill="#999">{`${y}"`}</text>);
  const shown = pic.pieces.find((p) => p.id === (hover ?? props.selected));
  // labels scale with the table: legible on a 36" table and a 72" one
  const fs = Math.max(0.35, Math.min(0.8, Math.max(pic.width, pic.height) / 90));
  const pad = 1;
  return (
    <svg viewBox={`${-pad} ${-pad} ${pic.width + 2 * pad} ${pic.height + 2 * pad}`} role="img">
      <title>the table, {`${pic.width}" by ${pic.height}"`}</title>
      <rect x={0} y={0} width={pic.width} height={pic.height} fill="#f4f1e1" stroke="#999" stroke-width={0.1} />
      {grid}
      {pic.terrain.map((t, i) =>
        t.line ? (
          <polyline
            key={`t${i}`}
            points={pts(t.points)}
            fill="none"
            stroke={(LINE_STROKE[firstWord(t.kind)] ?? ['#777', 0.25])[0]}
            stroke-width={(LINE_STROKE[firstWord(t.kind)] ?? ['#777', 0.25])[1]}
          >
            <title>{t.label ?? t.kind}</title>
          </polyline>
        ) : (
          <polygon
            key={`t${i}`}
            points={pts(t.points)}
            fill={TERRAIN_FILL[firstWord(t.kind)] ?? '#ddd'}
            fill-opacity={0.8}
            stroke="#aaa"
            stroke-width={0.05}
          >
            <title>{t.label ?? t.kind}</title>
          </polygon>
        ),
      )}
      {ruler}
      {(pic.marks ?? []).map((m, i) => (
        <g key={`m${i}`}>
          <circle
            cx={m.at[0]}
            cy={m.at[1]}
            r={0.6}
            fill="none"
            stroke={m.side !== undefined && m.side >= 0 ? SIDE_COLOURS[m.side] : '#b08000'}
            stroke-width={0.2}
          />
          <text x={m.at[0] + 0.8} y={m.at[1] + 0.3} font-size={0.9} fill="#6a4a00">
            {m.label}
          </text>
        </g>
      ))}
      {shown?.reach?.map((r, i) => reachShape(r, centre(shown), i))}
      {pic.pieces.map((p) => {
        const colour = p.side >= 0 ? (SIDE_COLOURS[p.side] ?? '#555') : '#777';
        const [cx, cy] = centre(p);
        const sel = props.selected === p.id;
        return (
          // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be an HTML button
          <g
            key={p.id}
            class={`piece${sel ? ' selected' : ''}`}
            data-piece={p.id}
            role="button"
            tabIndex={0}
            onMouseEnter={() => setHover(p.id)}
            onFocus={() => setHover(p.id)}
            onBlur={() => setHover(undefined)}
            onMouseLeave={() => setHover(undefined)}
            {...pickable(() => props.onPick(sel ? undefined : p.id))}
          >
            <title>{p.title}</title>
            {p.points.length > 1 ? (
              <polygon
                points={pts(p.points)}
                fill={colour}
                fill-opacity={0.55}
                stroke={sel ? '#f0a000' : colour}
                stroke-width={sel ? 0.3 : 0.1}
              />
            ) : (
              <circle cx={cx} cy={cy} r={0.45} fill="#fff" stroke={colour} stroke-width={0.2} />
            )}
            {p.front ? (
              <line
                x1={p.front[0][0]}
                y1={p.front[0][1]}
                x2={p.front[1][0]}
                y2={p.front[1][1]}
                stroke="#111"
                stroke-width={0.25}
              />
            ) : null}
            <text x={cx} y={cy} font-size={fs} text-anchor="middle" fill="#111" style="pointer-events:none">
              <tspan x={cx} dy={p.markers.length ? -0.1 * fs : 0.35 * fs}>
                {p.label}
              </tspan>
              {p.markers.length ? (
                <tspan x={cx} dy={fs} font-size={fs * 0.8} fill="#333">
                  {p.markers.join(' ')}
                </tspan>
              ) : null}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function MapBoard(props: { pic: MapPicture; selected?: string; onPick: (id: string | undefined) => void }) {
  const { pic } = props;
  const href = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(pic.svg)}`, [pic.svg]);
  return (
    <svg viewBox={`0 0 ${pic.width} ${pic.height}`} role="img">
      <title>the map</title>
      <image href={href} x={0} y={0} width={pic.width} height={pic.height} />
      {pic.stacks.map((st) => (
        <g key={st.area}>
          {st.pieces.map((p, i) => {
            // a stack of more than four counters is laid out in two columns about the area's centre
            const cols = st.pieces.length > 4 ? 2 : 1;
            const rows = Math.ceil(st.pieces.length / cols);
            const x = st.at[0] - 29 * cols + 58 * Math.floor(i / rows) + 1;
            const y = st.at[1] - 7.5 * rows + 15 * (i % rows);
            const sel = props.selected === p.id;
            const colour = p.side >= 0 ? (SIDE_COLOURS[p.side] ?? '#555') : '#777';
            return (
              // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be an HTML button
              <g
                key={p.id}
                class={`piece${sel ? ' selected' : ''}`}
                data-piece={p.id}
                role="button"
                tabIndex={0}
                {...pickable(() => props.onPick(sel ? undefined : p.id))}
              >
                <title>{p.title}</title>
                <rect
                  x={x}
                  y={y}
                  width={56}
                  height={13}
                  rx={2}
                  fill="#fff"
                  stroke={sel ? '#f0a000' : colour}
                  stroke-width={sel ? 2 : 1}
                />
                <text x={x + 28} y={y + 10} font-size={9} text-anchor="middle" fill={colour}>
                  {p.label}
                  {p.markers.length ? ` ${p.markers.join('')}` : ''}
                </text>
              </g>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

function Board(props: { view: View; selected?: string; onPick: (id: string | undefined) => void }) {
  const pic: Picture | undefined = props.view.picture;
  return (
    <div
      class="board"
      data-ruleset={props.view.ruleset}
      data-ply={props.view.ply}
      data-over={props.view.result ? 'yes' : 'no'}
    >
      {pic?.kind === 'table' ? (
        <TableBoard pic={pic} selected={props.selected} onPick={props.onPick} />
      ) : pic?.kind === 'map' ? (
        <MapBoard pic={pic} selected={props.selected} onPick={props.onPick} />
      ) : (
        <pre>{props.view.text}</pre>
      )}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// Panels
// ---------------------------------------------------------------------------------------------------------------------

function Log(props: { log: readonly StepView[]; players: readonly string[] }) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => end.current?.scrollIntoView({ block: 'nearest' }), [props.log.length]);
  return (
    <div class="log">
      {props.log.map((s) => (
        <div class="step" key={s.ply}>
          <span class={s.player >= 0 ? `side-${s.player}` : ''}>
            {s.ply}. {s.text}
          </span>
          {s.events.map((e, i) => (
            <div class="ev" key={i}>
              <span class="rule">[{e.rule}]</span> {e.text}
              {e.dice?.length ? ` (dice: ${e.dice.join(' ')})` : ''}
            </div>
          ))}
          {s.explanation ? <Why ex={s.explanation} /> : null}
        </div>
      ))}
      <div ref={end} />
    </div>
  );
}

function Why(props: { ex: NonNullable<StepView['explanation']> }) {
  const ex = props.ex;
  return (
    <div class="why">
      {ex.winProbability !== undefined ? `win estimate ${(ex.winProbability * 100).toFixed(0)}%. ` : ''}
      {ex.text ?? ''}
      {ex.alternatives?.length ? (
        <ul>
          {ex.alternatives.slice(0, 6).map((a) => (
            <li key={a.action}>
              {a.action}
              {a.visits !== undefined ? `, ${a.visits} visits` : ''}
              {a.value !== undefined ? `, value ${a.value.toFixed(2)}` : ''}
              {a.note ? `, ${a.note}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Legend(props: { pic?: Picture; players: readonly string[] }) {
  return (
    <div class="legend">
      {props.players.map((p, i) => (
        <div key={p} class={`side-${i}`}>
          ■ {p}
        </div>
      ))}
      {(props.pic?.legend ?? []).map((l) => (
        <div key={l.code}>
          <b>{l.code}</b> {l.text}
        </div>
      ))}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// A game
// ---------------------------------------------------------------------------------------------------------------------

function Game(props: { id: string; replay?: boolean }) {
  const [view, setView] = useState<View | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [selected, setSelected] = useState<string | undefined>();
  const [filter, setFilter] = useState('');
  const ws = useRef<WebSocket | null>(null);

  useEffect(() => {
    let closed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      const s = new WebSocket(
        `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/games/${props.id}/ws`,
      );
      ws.current = s;
      s.onmessage = (m) => {
        const msg = JSON.parse(String(m.data)) as { t: string; view?: View; message?: string; fatal?: boolean };
        if (msg.t === 'view' && msg.view) {
          setView(msg.view);
          setError(undefined);
        } else if (msg.t === 'error') {
          setError(msg.message);
          if (msg.fatal) closed = true;
        }
      };
      s.onclose = () => {
        if (!closed) retry = setTimeout(connect, 1000);
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      ws.current?.close();
    };
  }, [props.id]);

  const send = (m: unknown) => ws.current?.send(JSON.stringify(m));
  if (!view) return <p class={error ? 'error' : 'note'}>{error ?? 'connecting…'}</p>;

  const you = view.viewer;
  const offers = view.offers.filter(
    (o) =>
      (!selected || names(o, selected)) &&
      (!filter || `${o.key} ${o.text}`.toLowerCase().includes(filter.toLowerCase())),
  );
  const lastWhy = [...view.log].reverse().find((s) => s.explanation);
  const total = props.replay ? ((view as View & { total?: number }).total ?? view.ply) : view.ply;
  const turn =
    view.toMove.kind === 'player'
      ? `${view.players[view.toMove.player]} to move${view.seats[view.toMove.player] !== 'human' ? ` (computer: ${view.seats[view.toMove.player]})` : ''}`
      : view.toMove.kind === 'chance'
        ? 'dice to roll'
        : 'game over';
  return (
    <>
      <header>
        <h1>{view.title}</h1>
        <span>scenario {view.scenarioId}</span>
        <span>
          {you >= 0 ? `you play ${view.players[you]}` : view.mode === 'replay' ? 'replay' : 'all sides'}
          {view.seats.some((s) => s !== 'human')
            ? `; computer: ${[...new Set(view.seats.filter((s) => s !== 'human'))].join(', ')}`
            : ''}
        </span>
        <span>{view.mode === 'assist' ? 'assistant mode: your table, your dice' : ''}</span>
        <span data-testid="turn">
          ply {view.ply}: {turn}
        </span>
        <a href="/">new game</a>
      </header>
      <main>
        <div>
          <Board view={view} selected={selected} onPick={setSelected} />
          {props.replay ? <Slider id={props.id} view={view} total={total} send={send} /> : null}
          {view.picture ? (
            <details>
              <summary>text picture</summary>
              <pre>{view.text}</pre>
            </details>
          ) : null}
        </div>
        <div>
          {error ? (
            <p class="error" data-testid="error">
              {error}
            </p>
          ) : null}
          {view.failure ? <p class="error">{view.failure}</p> : null}
          {view.result ? (
            <section class="panel" data-testid="result">
              <h2>Result</h2>
              {view.result}
            </section>
          ) : null}
          {view.thinking !== undefined ? <p class="thinking">{view.players[view.thinking]} is thinking…</p> : null}
          {view.decision ? <p>{view.decision}</p> : null}
          {view.computerMoves.length ? (
            <section class="panel" data-testid="computer-moves">
              <h2>
                {view.mode === 'assist' ? 'The computer’s moves: make them on your table' : 'The computer played'}
              </h2>
              <ol>
                {view.computerMoves.map((m, i) => (
                  <li key={i}>{m}</li>
                ))}
              </ol>
            </section>
          ) : null}
          {view.roll ? <Roll key={view.ply} roll={view.roll} send={send} /> : null}
          {view.offers.length ? (
            <section class="panel">
              <h2>
                Your choices ({offers.length} of {view.offers.length})
                {selected ? (
                  <>
                    {' '}
                    naming {selected}{' '}
                    <button type="button" onClick={() => setSelected(undefined)}>
                      all
                    </button>
                  </>
                ) : null}
              </h2>
              <input
                placeholder="filter"
                value={filter}
                onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
              />
              <div class="offers">
                {offers.map((o) => (
                  <button
                    type="button"
                    key={o.key}
                    data-action-key={o.key}
                    title={o.key}
                    onClick={() => send({ t: 'act', key: o.key })}
                  >
                    {o.text}
                    {o.text !== o.key ? <code>{o.key}</code> : null}
                  </button>
                ))}
              </div>
            </section>
          ) : null}
          <section class="panel controls">
            {view.mode !== 'replay' ? (
              <>
                <button
                  type="button"
                  data-testid="take-back"
                  disabled={!view.canTakeBack}
                  onClick={() => send({ t: 'takeBack' })}
                >
                  take back
                </button>
                <button
                  type="button"
                  data-testid="rethink"
                  disabled={view.thinking !== undefined || !view.seats.some((s) => s !== 'human')}
                  onClick={() => send({ t: 'rethink' })}
                >
                  think again
                </button>
              </>
            ) : null}
            <a href={`/api/games/${props.id}/replay`} data-testid="download">
              download replay
            </a>
            {view.mode !== 'replay' ? (
              <a href={`/replay/${props.id}`}>replay viewer</a>
            ) : (
              <a href={`/game/${props.id}`}>table</a>
            )}
          </section>
          {lastWhy?.explanation ? (
            <section class="panel">
              <h2>The computer's reasoning (ply {lastWhy.ply})</h2>
              <Why ex={lastWhy.explanation} />
            </section>
          ) : null}
          <section class="panel">
            <h2>Log</h2>
            <Log log={view.log} players={view.players} />
          </section>
          <section class="panel">
            <h2>Legend</h2>
            <Legend pic={view.picture} players={view.players} />
          </section>
        </div>
      </main>
    </>
  );
}

/** Assistant mode at a roll: the faces of the person's real dice, or (where the node is no dice roll) its outcome. */
function Roll(props: { roll: NonNullable<TableView['roll']>; send: (m: unknown) => void }) {
  const { roll } = props;
  const [faces, setFaces] = useState<string[]>(() => (roll.dice ?? []).map(() => ''));
  if (!roll.dice)
    return (
      <section class="panel outcomes">
        <h2>{roll.what}</h2>
        <p class="note">Draw or decide it at your table and choose what came.</p>
        {roll.outcomes.map((o) => (
          <button
            type="button"
            key={o.key}
            data-action-key={o.key}
            onClick={() => props.send({ t: 'roll', key: o.key })}
          >
            {o.text} <span class="note">({(o.p * 100).toFixed(1)}%)</span>
          </button>
        ))}
      </section>
    );
  const dice = roll.dice;
  return (
    <section class="panel outcomes">
      <h2>Roll your dice: {roll.what}</h2>
      <form
        data-testid="faces"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.send({ t: 'roll', faces: faces.map((f) => Number(f)) });
        }}
      >
        {dice.map((k, i) => (
          <input
            key={i}
            type="number"
            min={1}
            max={k}
            required
            aria-label={`die ${i + 1} (D${k})`}
            placeholder={`D${k}`}
            style="width: 4em"
            value={faces[i]}
            onInput={(e) => {
              const v = (e.target as HTMLInputElement).value;
              setFaces((f) => f.map((x, j) => (j === i ? v : x)));
            }}
          />
        ))}{' '}
        <button type="submit">enter</button>
      </form>
      <details>
        <summary>what the dice can give</summary>
        <ul>
          {roll.outcomes.map((o) => (
            <li key={o.key}>
              {o.text} ({(o.p * 100).toFixed(1)}%)
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

function Slider(props: { id: string; view: View; total: number; send: (m: unknown) => void }) {
  const [max, setMax] = useState(props.view.ply);
  useEffect(() => setMax((m) => Math.max(m, props.view.ply)), [props.view.ply]);
  const go = (ply: number) => props.send({ t: 'view', ply: Math.max(0, Math.min(max, ply)) });
  return (
    <div class="slider">
      <button type="button" onClick={() => go(0)}>
        ⏮
      </button>
      <button type="button" data-testid="back" onClick={() => go(props.view.ply - 1)}>
        ◀
      </button>
      <input
        type="range"
        min={0}
        max={max}
        value={props.view.ply}
        onInput={(e) => go(Number((e.target as HTMLInputElement).value))}
      />
      <button type="button" data-testid="forward" onClick={() => go(props.view.ply + 1)}>
        ▶
      </button>
      <button type="button" onClick={() => go(max)}>
        ⏭
      </button>
      <span>
        {props.view.ply} / {max}
      </span>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// The lobby
// ---------------------------------------------------------------------------------------------------------------------

function Lobby() {
  const [rulesets, setRulesets] = useState<RulesetInfo[]>([]);
  const [levels, setLevels] = useState<{ name: string; description: string }[]>([]);
  const [others, setOthers] = useState<string[]>([]);
  const [rid, setRid] = useState('');
  const [scenario, setScenario] = useState('');
  const [side, setSide] = useState('');
  const [opponent, setOpponent] = useState('hard');
  const [seed, setSeed] = useState('');
  const [mode, setMode] = useState('play');
  const [error, setError] = useState<string>();
  const [runs, setRuns] = useState<
    { run: string; games: { id: string; scenario: string; seats: string[]; text?: string }[] }[]
  >([]);
  useEffect(() => {
    api<RulesetInfo[]>('/api/rulesets').then(
      (r) => {
        setRulesets(r);
        setRid(r[0]?.id ?? '');
      },
      (e: Error) => setError(e.message),
    );
    api<{ levels: { name: string; description: string }[]; others: string[] }>('/api/opponents').then((o) => {
      setLevels(o.levels);
      setOthers(o.others);
    });
    api<typeof runs>('/api/runs').then(setRuns, () => {});
  }, []);
  const rs = rulesets.find((r) => r.id === rid);
  const recent = JSON.parse(localStorage.getItem('eagles.games') ?? '[]') as { id: string; label: string }[];
  const start = (e: Event) => {
    e.preventDefault();
    const q = new URLSearchParams({
      ruleset: rid,
      scenario: scenario || rs?.defaultScenario || '',
      side: side || rs?.players[0] || '',
      opponent,
      mode,
    });
    if (seed) q.set('seed', seed);
    location.href = `/play?${q}`;
  };
  const upload = async (file: File, open: string) => {
    try {
      const q = new URLSearchParams({
        open,
        ...(open === 'resume' ? { side: side || rs?.players[0] || '0', opponent } : {}),
      });
      const r = await api<{ id: string; mode: string }>(`/api/replays?${q}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: await file.arrayBuffer(),
      });
      location.href = r.mode === 'replay' ? `/replay/${r.id}` : `/game/${r.id}`;
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <>
      <header>
        <h1>eagles — the web table</h1>
      </header>
      <main style="grid-template-columns: 1fr">
        <section class="panel">
          <h2>New game</h2>
          <form class="lobby" onSubmit={start}>
            <label for="ruleset">Ruleset</label>
            <select
              id="ruleset"
              value={rid}
              onChange={(e) => {
                setRid((e.target as HTMLSelectElement).value);
                setScenario('');
                setSide('');
              }}
            >
              {rulesets.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title} ({r.id})
                </option>
              ))}
            </select>
            <label for="scenario">Scenario</label>
            <select
              id="scenario"
              value={scenario || rs?.defaultScenario}
              onChange={(e) => setScenario((e.target as HTMLSelectElement).value)}
            >
              {(rs?.scenarios ?? []).map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <label for="side">Your side</label>
            <select
              id="side"
              value={side || rs?.players[0]}
              onChange={(e) => setSide((e.target as HTMLSelectElement).value)}
            >
              {(rs?.players ?? []).map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
              <option value="both">both sides (hot seat)</option>
              <option value="none">none (watch the computer)</option>
            </select>
            <label for="opponent">Computer</label>
            <select id="opponent" value={opponent} onChange={(e) => setOpponent((e.target as HTMLSelectElement).value)}>
              {levels.map((l) => (
                <option key={l.name} value={l.name}>
                  {l.name}: {l.description}
                </option>
              ))}
              {others.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
            <label for="mode">Mode</label>
            <select id="mode" value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value)}>
              <option value="play">play here (the computer rolls the dice)</option>
              <option value="assist">assistant for a real table (you roll the dice)</option>
            </select>
            <label for="seed">Seed</label>
            <input
              id="seed"
              value={seed}
              placeholder="random"
              onInput={(e) => setSeed((e.target as HTMLInputElement).value)}
            />
            <span />
            <button type="submit" data-testid="start">
              start
            </button>
          </form>
        </section>
        {error ? <p class="error">{error}</p> : null}
        <section class="panel">
          <h2>Open a replay file</h2>
          <p class="note">A replay downloaded from a game here, or written by the arena or `eagles play --replay`.</p>
          <label>
            view it:{' '}
            <input
              type="file"
              data-testid="upload-view"
              onChange={(e) => {
                const f = (e.target as HTMLInputElement).files?.[0];
                if (f) upload(f, 'view');
              }}
            />
          </label>
          <br />
          <label>
            play on from its end (as the side and against the computer chosen above):{' '}
            <input
              type="file"
              data-testid="upload-resume"
              onChange={(e) => {
                const f = (e.target as HTMLInputElement).files?.[0];
                if (f) upload(f, 'resume');
              }}
            />
          </label>
        </section>
        {recent.length ? (
          <section class="panel">
            <h2>Your recent games</h2>
            <ul>
              {recent.map((g) => (
                <li key={g.id}>
                  <a href={`/game/${g.id}`}>{g.label}</a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {runs.length ? (
          <section class="panel">
            <h2>Arena games</h2>
            {runs.map((r) => (
              <details key={r.run}>
                <summary>
                  {r.run} ({r.games.length} games)
                </summary>
                <ul>
                  {r.games.slice(0, 500).map((g) => (
                    <li key={g.id}>
                      <button
                        type="button"
                        onClick={async () => {
                          try {
                            const x = await api<{ id: string }>(
                              `/api/runs/${encodeURIComponent(r.run)}/${encodeURIComponent(g.id)}`,
                              { method: 'POST' },
                            );
                            location.href = `/replay/${x.id}`;
                          } catch (err) {
                            setError((err as Error).message);
                          }
                        }}
                      >
                        {g.id}: {g.seats.join(' vs ')} {g.text ?? ''}
                      </button>
                    </li>
                  ))}
                </ul>
              </details>
            ))}
          </section>
        ) : null}
      </main>
    </>
  );
}

/** `/play?…`: a direct link opens a new game, then the page moves to the game's own address. */
function Play() {
  const [error, setError] = useState<string>();
  useEffect(() => {
    const q = new URLSearchParams(location.search);
    const body: Record<string, string> = {};
    for (const k of ['ruleset', 'scenario', 'side', 'opponent', 'seed', 'mode']) {
      const v = q.get(k);
      if (v) body[k] = v;
    }
    api<{ id: string }>('/api/games', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(
      (r) => {
        const recent = JSON.parse(localStorage.getItem('eagles.games') ?? '[]') as { id: string; label: string }[];
        const label = `${body.ruleset} ${body.scenario ?? ''} as ${body.side ?? 'first side'} against ${body.opponent ?? 'hard'} (${new Date().toLocaleString()})`;
        localStorage.setItem('eagles.games', JSON.stringify([{ id: r.id, label }, ...recent].slice(0, 20)));
        history.replaceState(null, '', `/game/${r.id}`);
        location.replace(`/game/${r.id}`);
      },
      (e: Error) => setError(e.message),
    );
  }, []);
  return error ? (
    <p class="error" data-testid="error">
      {error} — <a href="/">back to the lobby</a>
    </p>
  ) : (
    <p class="note">opening the game…</p>
  );
}

function App() {
  const path = location.pathname;
  const game = /^\/game\/([\w-]+)$/.exec(path);
  const replay = /^\/replay\/([\w-]+)$/.exec(path);
  if (game) return <Game id={game[1]!} />;
  if (replay) return <Game id={replay[1]!} replay />;
  if (path === '/play') return <Play />;
  return <Lobby />;
}

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);
