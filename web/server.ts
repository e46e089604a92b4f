/**
 * `eagles serve`: the web table. A local HTTP server (Fastify) serves the page (Preact, bundled by esbuild when the
 * server starts, so nothing is fetched from elsewhere) and a small JSON API; each open game talks over a WebSocket.
 *
 *   GET  /                       the lobby: start a game, resume one, open a replay file or an arena game
 *   GET  /play?ruleset=…&scenario=…&side=A&opponent=random&seed=3[&mode=assist]   a direct link: opens a new game
 *   GET  /game/<id>              a game, reachable only through its own unguessable id
 *   GET  /replay/<id>            a game in the replay viewer (a step slider)
 *   GET  /api/rulesets           rulesets, their scenarios, sides and the computer players on offer
 *   POST /api/games              {ruleset, scenario?, side?, opponent?, seed?, mode?} → {id}
 *   GET  /api/games/<id>/replay  the game as a replay file (`eagles replay verify` accepts it)
 *   POST /api/replays?open=view|resume[&side=…&opponent=…]   upload a replay file → {id}
 *   GET  /api/runs               arena run folders under --runs and their games; POST /api/runs/<run>/<game> → {id}
 *   WS   /api/games/<id>/ws      → {t:'act',key} {t:'roll',key|faces} {t:'takeBack'} {t:'rethink'} {t:'view',ply?}
 *                                ← {t:'view',view} {t:'error',message}
 *
 * The computer thinks in a worker pool (piscina, `think-worker.ts`), never on the event loop, so many games run at
 * once and the page stays responsive. Every game is saved after each step (`store.ts`). A malformed message gets an
 * error reply naming what is wrong; nothing already recorded is lost.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import websocket from '@fastify/websocket';
import * as esbuild from 'esbuild';
import Fastify, { type FastifyInstance } from 'fastify';
import Piscina from 'piscina';
import type { WebSocket } from '@fastify/websocket';
import { z } from 'zod';
import { AgentSpecError, parseSpec } from '../agents/agent.ts';
import { createAgent, DIFFICULTIES } from '../agents/registry.ts';
import { loadScenario, loadScenarioFile, scenarioIds } from '../arena/catalog.ts';
import { Store } from '../arena/store.ts';
import type { AnyGame } from '../engine/core/game.ts';
import { hasHiddenInformation } from '../engine/core/views.ts';
import { decodeReplay, encodeReplay, type Replay } from '../engine/core/replay.ts';
import { getRuleset, RULESETS } from '../engine/rulesets/index.ts';
import { GameStore } from './store.ts';
import { type Mode, Table, TableError, type TableSpec } from './session.ts';
import type { ThinkAnswer, ThinkTask } from './think-worker.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

export interface ServeOptions {
  readonly port?: number;
  readonly host?: string;
  /** The SQLite file games are saved in. */
  readonly db: string;
  /** A folder of arena run folders whose games the replay viewer may open. */
  readonly runs?: string;
  /** Computer players thinking at once (worker threads). */
  readonly workers?: number;
  /** The longest a computer seat may think over one decision, in ms (default 120 s). */
  readonly thinkLimitMs?: number;
  /** Tests only: also seat the diagnostic agents that fail on purpose (test-crash, test-exit, test-hang). */
  readonly diagnosticSeats?: boolean;
}

/** The computer players a page may seat (programs, `ext`, are not offered to a web page). */
const SEAT_AGENTS = new Set(['random', 'heuristic', 'mcts', 'neural', ...Object.keys(DIFFICULTIES)]);

function checkSeat(spec: string, diagnostic = false): string {
  if (spec === 'human') return spec;
  const { name } = parseSpec(spec);
  if (!SEAT_AGENTS.has(name) && !(diagnostic && name.startsWith('test-')))
    throw new AgentSpecError(
      `"${spec}" cannot sit at the web table; choose one of human, ${[...SEAT_AGENTS].join(', ')}`,
    );
  createAgent(spec); // refuses unknown parameters, naming them
  return spec;
}

/** A side named by player name or index; `both` (hot seat) and `none` (watch the computer play itself): -1. */
function sideIndex(game: AnyGame, side: string | undefined): number {
  if (side === undefined || side === '') return 0;
  if (side === 'both' || side === 'none') return -1;
  const byName = game.players.findIndex((p) => p.toLowerCase() === side.toLowerCase());
  if (byName >= 0) return byName;
  const n = Number(side);
  if (Number.isInteger(n) && n >= 0 && n < game.players.length) return n;
  throw new TableError(`side "${side}" is not a side of ${game.id}: ${game.players.join(', ')}, both or none`);
}

const newGameSchema = z
  .object({
    ruleset: z.string(),
    scenario: z.string().optional(),
    side: z.string().optional(),
    opponent: z.string().optional(),
    seed: z.string().max(200).optional(),
    mode: z.enum(['play', 'assist']).optional(),
  })
  .strict();

const messageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('act'), key: z.string() }).strict(),
  z.object({ t: z.literal('roll'), key: z.string().optional(), faces: z.array(z.number().int()).optional() }).strict(),
  z.object({ t: z.literal('takeBack') }).strict(),
  z.object({ t: z.literal('rethink') }).strict(),
  z.object({ t: z.literal('view'), ply: z.number().int().optional() }).strict(),
]);

/** A game being played: its table, who watches, and the computer's thinking. */
interface Live {
  readonly id: string;
  readonly table: Table;
  readonly viewer: number;
  readonly sockets: Set<WebSocket>;
  /** Bumped by every change: an answer from a search started before a take-back is dropped. */
  gen: number;
  thinking?: number;
  attempt: number;
  /** The last failure of a computer seat, shown until the next step. */
  failure?: string;
}

async function buildServer(o: ServeOptions): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const store = new GameStore(o.db);
  const pool = new Piscina({
    filename: new URL('./think-worker-boot.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, o.workers ?? 2),
    idleTimeout: 120_000,
  });
  const live = new Map<string, Live>();
  const thinkLimitMs = o.thinkLimitMs ?? 120_000;
  const bundle = await esbuild.build({
    entryPoints: [join(HERE, 'client', 'main.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    target: 'es2022',
    logLevel: 'silent',
  });
  const appJs = bundle.outputFiles[0]!.text;
  const { PAGE, CSS } = await import('./client/page.ts');

  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
  // a page sends small JSON messages: anything over 1 MiB closes its socket
  await app.register(websocket, { options: { maxPayload: 1 << 20 } });
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const page = async (_req: unknown, rep: { type: (t: string) => { send: (b: string) => void } }) =>
    rep.type('text/html; charset=utf-8').send(PAGE);
  for (const path of ['/', '/play', '/game/:id', '/replay/:id', '/replays']) app.get(path, page);
  app.get('/app.js', async (_req, rep) => rep.type('text/javascript; charset=utf-8').send(appJs));
  app.get('/app.css', async (_req, rep) => rep.type('text/css; charset=utf-8').send(CSS));

  app.setErrorHandler((e, _req, rep) => {
    const known = e instanceof TableError || e instanceof AgentSpecError || e instanceof z.ZodError;
    const message =
      e instanceof z.ZodError
        ? e.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')
        : (e as Error).message;
    rep.status(known || (e as { statusCode?: number }).statusCode === 400 ? 400 : 500).send({ error: message });
  });

  app.get('/api/rulesets', async () =>
    Object.values(RULESETS).map((g) => ({
      id: g.id,
      title: g.title,
      players: g.players,
      defaultScenario: g.defaultScenario,
      scenarios: scenarioIds(g.id),
      picture: !!g.picture,
    })),
  );
  app.get('/api/opponents', async () => ({
    levels: Object.entries(DIFFICULTIES).map(([name, d]) => ({ name, description: d.description })),
    others: ['random', 'heuristic', 'mcts:it=200'],
  }));

  /** Open a saved game (a page reloaded, a server restarted). */
  function open(id: string): Live {
    const got = live.get(id);
    if (got) return got;
    const saved = store.load(id);
    if (!saved) throw new TableError(`no game "${id}" here`);
    const table = Table.restore(getRuleset(saved.spec.ruleset), saved.scenario, saved.spec, saved.log);
    const l: Live = { id, table, viewer: saved.viewer, sockets: new Set(), gen: 0, attempt: 0 };
    live.set(id, l);
    // the least recently used idle games leave memory (they stay saved)
    if (live.size > 500)
      for (const [k, x] of live) if (!x.sockets.size && x.thinking === undefined && k !== id && live.delete(k)) break;
    return l;
  }

  function create(
    spec: TableSpec,
    scenario: unknown,
    viewer: number,
    log: Table['log'] extends () => infer L ? L : never,
  ) {
    const id = randomBytes(16).toString('base64url');
    const game = getRuleset(spec.ruleset);
    const table = Table.restore(game, scenario, spec, log);
    store.create(id, spec, scenario, viewer, table.log());
    const l: Live = { id, table, viewer, sockets: new Set(), gen: 0, attempt: 0 };
    live.set(id, l);
    return l;
  }

  /**
   * Whose eyes the page shows: the person's side; at a hot seat (every side a person) of a game with secrets, the
   * side on the move (after a roll, the side that moved last), so neither reads the other's sealed choices; a
   * spectator of a game between computers, or of a replay, sees everything.
   */
  function viewerOf(l: Live): number {
    if (l.viewer >= 0 || l.table.spec.mode === 'replay' || !hasHiddenInformation(l.table.game)) return l.viewer;
    if (!l.table.spec.seats.every((x) => x === 'human')) return -1;
    const tm = l.table.toMove();
    if (tm.kind === 'player') return tm.player;
    const last = [...l.table.log()].reverse().find((c) => c.player >= 0);
    return last?.player ?? 0;
  }

  function send(ws: WebSocket, msg: unknown) {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
  }

  function broadcast(l: Live) {
    const view = { ...l.table.view(viewerOf(l), l.thinking !== undefined ? { thinking: l.thinking } : {}), id: l.id };
    const msg = { t: 'view', view: l.failure ? { ...view, failure: l.failure } : view };
    for (const ws of l.sockets) send(ws, msg);
  }

  /** After a change: play the dice and forced moves, save, and let a computer seat think if it is on the move. */
  function settle(l: Live) {
    l.table.advance();
    store.saveLog(l.id, l.table.log());
    const p = l.table.computerToMove();
    if (p !== undefined && l.thinking === undefined) think(l, p);
    broadcast(l);
  }

  function think(l: Live, player: number) {
    const gen = ++l.gen;
    l.thinking = player;
    const t = l.table;
    const task: ThinkTask = {
      game: l.id,
      ruleset: t.game.id,
      scenario: t.scenario,
      keys: t.keys(),
      player,
      spec: t.spec.seats[player]!,
      seed: t.spec.seed,
      ply: t.ply,
      attempt: l.attempt,
    };
    // a computer seat that hangs is stopped (its worker ended) and reported; "think again" retries
    const ac = new AbortController();
    const limit = setTimeout(() => ac.abort(), thinkLimitMs);
    (pool.run(task, { signal: ac.signal }) as Promise<ThinkAnswer>)
      .finally(() => clearTimeout(limit))
      .then(
        (a) => {
          if (l.gen !== gen) return;
          l.thinking = undefined;
          try {
            t.applyKey(a.key, player, a.explanation);
            l.failure = undefined;
          } catch (e) {
            l.failure = `the computer (${task.spec}) answered "${a.key}", which was refused: ${(e as Error).message}`;
          }
          settle(l);
        },
        (e: Error) => {
          if (l.gen !== gen) return;
          l.thinking = undefined;
          l.failure = ac.signal.aborted
            ? `the computer (${task.spec}) took longer than ${thinkLimitMs / 1000} s and was stopped; "think again" retries`
            : `the computer (${task.spec}) failed: ${e.message.split('\n')[0]}; "think again" retries`;
          broadcast(l);
        },
      );
  }

  app.post('/api/games', async (req) => {
    const b = newGameSchema.parse(req.body ?? {});
    if (!RULESETS[b.ruleset])
      throw new TableError(`unknown ruleset "${b.ruleset}"; known: ${Object.keys(RULESETS).join(', ')}`);
    const {
      game,
      json: scenario,
      scenarioId,
    } = (() => {
      try {
        const { file, id } = loadScenario(b.ruleset, b.scenario || undefined);
        return { ...loadScenarioFile(file, b.ruleset), scenarioId: id };
      } catch (e) {
        throw new TableError((e as Error).message.split('\n')[0]!);
      }
    })();
    const viewer = sideIndex(game, b.side);
    const opponent = checkSeat(b.opponent ?? 'hard', o.diagnosticSeats);
    const seats = game.players.map((_, i) =>
      b.side === 'both' ? 'human' : b.side === 'none' ? opponent : i === viewer ? 'human' : opponent,
    );
    const spec: TableSpec = {
      ruleset: game.id,
      scenarioId,
      seed: b.seed ?? randomBytes(6).toString('hex'),
      seats,
      mode: (b.mode ?? 'play') as Mode,
    };
    const l = create(spec, scenario, viewer, []);
    settle(l);
    return { id: l.id };
  });

  app.get<{ Params: { id: string } }>('/api/games/:id/replay', async (req, rep) => {
    const l = open(req.params.id);
    const r = l.table.replay();
    return rep
      .header('content-disposition', `attachment; filename="${l.table.game.id}-${l.table.spec.seed}.replay"`)
      .type('application/octet-stream')
      .send(Buffer.from(encodeReplay(r)));
  });

  /** A replay (uploaded, or an arena game) opened in the viewer, or resumed as a game to go on with. */
  function fromReplay(r: Replay, how: { open: string; side?: string; opponent?: string }) {
    const game = getRuleset(r.ruleset);
    if (r.rulesetVersion !== game.version)
      throw new TableError(`the replay was made with ${game.id} v${r.rulesetVersion}; this engine is v${game.version}`);
    const resume = how.open === 'resume';
    const viewer = resume ? sideIndex(game, how.side) : -1;
    const opponent = resume ? checkSeat(how.opponent ?? 'hard', o.diagnosticSeats) : 'human';
    const seats = game.players.map((_, i) => (!resume || viewer < 0 || i === viewer ? 'human' : opponent));
    const spec: TableSpec = {
      ruleset: game.id,
      scenarioId: r.scenarioId,
      seed: r.seed,
      seats,
      mode: resume ? 'play' : 'replay',
    };
    const log = r.steps.map((s) => ({ key: s.a, player: s.p }));
    const l = create(spec, r.scenario, viewer, log);
    if (resume) settle(l);
    return { id: l.id, mode: spec.mode };
  }

  app.post<{ Querystring: { open?: string; side?: string; opponent?: string } }>('/api/replays', async (req) => {
    const body = req.body;
    if (!Buffer.isBuffer(body)) throw new TableError('send the replay file as application/octet-stream');
    let r: Replay;
    try {
      r = decodeReplay(new Uint8Array(body));
    } catch (e) {
      throw new TableError((e as Error).message);
    }
    return fromReplay(r, { open: req.query.open ?? 'view', side: req.query.side, opponent: req.query.opponent });
  });

  const runsDir = o.runs ? resolve(o.runs) : undefined;
  app.get('/api/runs', async () => {
    if (!runsDir || !existsSync(runsDir)) return [];
    return readdirSync(runsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && Store.exists(join(runsDir, d.name)))
      .map((d) => {
        const s = Store.open(join(runsDir, d.name), 'read');
        try {
          return {
            run: d.name,
            games: s
              .games()
              .map((g) => ({ id: g.id, scenario: g.scenario, seats: g.seats, text: g.text, plies: g.plies })),
          };
        } finally {
          s.close();
        }
      });
  });
  app.post<{ Params: { run: string; game: string } }>('/api/runs/:run/:game', async (req) => {
    if (!runsDir) throw new TableError('the server was started without --runs');
    if (!/^[\w.-]+$/.test(req.params.run)) throw new TableError(`bad run name "${req.params.run}"`);
    const dir = join(runsDir, req.params.run);
    if (!Store.exists(dir)) throw new TableError(`no arena run "${req.params.run}"`);
    const s = Store.open(dir, 'read');
    try {
      const bytes = s.replay(req.params.game);
      if (!bytes) throw new TableError(`run ${req.params.run} has no replay of game "${req.params.game}"`);
      return fromReplay(decodeReplay(bytes), { open: 'view' });
    } finally {
      s.close();
    }
  });

  app.register(async (f) => {
    f.get<{ Params: { id: string } }>('/api/games/:id/ws', { websocket: true }, (ws, req) => {
      let l: Live;
      try {
        l = open(req.params.id);
      } catch (e) {
        send(ws, { t: 'error', message: (e as Error).message, fatal: true });
        ws.close();
        return;
      }
      l.sockets.add(ws);
      ws.on('close', () => l.sockets.delete(ws));
      broadcast(l);
      ws.on('message', (raw) => {
        try {
          let json: unknown;
          try {
            json = JSON.parse(String(raw));
          } catch {
            throw new TableError('the message is not JSON');
          }
          const m = messageSchema.safeParse(json);
          if (!m.success)
            throw new TableError(
              `malformed message: ${m.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ')}`,
            );
          handle(l, ws, m.data);
        } catch (e) {
          send(ws, { t: 'error', message: (e as Error).message });
        }
      });
    });
  });

  function handle(l: Live, ws: WebSocket, m: z.infer<typeof messageSchema>) {
    const t = l.table;
    if (m.t === 'view') {
      const view = {
        ...t.view(viewerOf(l), {
          ...(m.ply !== undefined ? { ply: m.ply } : {}),
          ...(l.thinking !== undefined ? { thinking: l.thinking } : {}),
        }),
        id: l.id,
      };
      send(ws, { t: 'view', view });
      return;
    }
    if (t.spec.mode === 'replay')
      throw new TableError('this is a replay: it cannot be played on (open it with "resume")');
    if (m.t === 'takeBack') {
      l.gen++;
      l.thinking = undefined;
      l.failure = undefined;
      t.takeBack(viewerOf(l) < 0 ? -1 : l.viewer);
      store.saveLog(l.id, t.log());
      // taking back to before a computer decision would only replay it: settle plays on to the person's turn
      settle(l);
      return;
    }
    if (m.t === 'rethink') {
      if (l.thinking !== undefined) throw new TableError('the computer is thinking already');
      if (l.failure === undefined) t.rethink();
      l.failure = undefined;
      l.attempt++;
      l.gen++;
      store.saveLog(l.id, t.log());
      settle(l);
      return;
    }
    if (l.thinking !== undefined) throw new TableError(`wait: ${t.game.players[l.thinking]} is thinking`);
    const tm = t.toMove();
    if (m.t === 'roll') {
      if (t.spec.mode !== 'assist') throw new TableError('the dice are rolled by the table only in assistant mode');
      if (tm.kind !== 'chance') throw new TableError('no roll is due now');
      if (m.faces) t.rollFaces(m.faces);
      else if (m.key !== undefined) {
        if (t.game.outcomeForFaces && t.game.rollAsk?.(t.current))
          throw new TableError('enter the faces of the dice you rolled (faces), not an outcome');
        t.applyKey(m.key, -1);
      } else throw new TableError('say what the dice gave: faces, or the outcome (key) where there are no dice');
    } else {
      if (tm.kind !== 'player')
        throw new TableError(tm.kind === 'over' ? 'the game is over' : 'the dice are due, not a move');
      if (t.spec.seats[tm.player] !== 'human')
        throw new TableError(`it is the computer's turn (${t.game.players[tm.player]})`);
      if (l.viewer >= 0 && tm.player !== l.viewer)
        throw new TableError(`it is ${t.game.players[tm.player]}'s turn, not yours`);
      t.applyKey(m.key, tm.player);
    }
    l.failure = undefined;
    settle(l);
  }

  return {
    app,
    close: async () => {
      await app.close();
      await pool.destroy();
      store.close();
    },
  };
}

/** Start the server and print its URL. */
export async function serve(o: ServeOptions): Promise<{ url: string; close: () => Promise<void> }> {
  const { app, close } = await buildServer(o);
  await app.listen({ port: o.port ?? 0, host: o.host ?? '127.0.0.1' });
  const a = app.server.address();
  const port = typeof a === 'object' && a ? a.port : o.port;
  return { url: `http://${o.host ?? '127.0.0.1'}:${port}/`, close };
}
