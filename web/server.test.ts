import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decodeReplay, verifyReplay } from '../engine/core/replay.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import type { TableView } from './protocol.ts';
import { serve } from './server.ts';

const dir = mkdtempSync(join(tmpdir(), 'eagles-web-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Msg =
  | { t: 'view'; view: TableView & { id: string; failure?: string } }
  | { t: 'error'; message: string; fatal?: boolean };

/** A page's socket: sends messages and waits for the replies that match. */
async function connect(url: string, id: string) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}api/games/${id}/ws`);
  const inbox: Msg[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (m) => {
    inbox.push(JSON.parse(String(m)) as Msg);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  const next = async (pred: (m: Msg) => boolean, ms = 30_000): Promise<Msg> => {
    const t0 = Date.now();
    for (;;) {
      const i = inbox.findIndex(pred);
      if (i >= 0) return inbox.splice(0, i + 1).pop()!;
      if (Date.now() - t0 > ms)
        throw new Error(`no matching message in ${ms} ms; got ${JSON.stringify(inbox.slice(-2))}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  return { ws, next, send: (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)) };
}

const isView = (pred: (v: TableView) => boolean) => (m: Msg) => m.t === 'view' && pred(m.view);

async function post(url: string, path: string, body: unknown) {
  const r = await fetch(`${url}${path.slice(1)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as { id?: string; error?: string } };
}

describe('eagles serve', () => {
  it('opens games, refuses bad requests with one-line reasons, and plays a game against the computer to the end', async () => {
    const db = join(dir, 'a.sqlite');
    const s = await serve({ port: 0, db, workers: 1 });
    try {
      expect((await post(s.url, '/api/games', { ruleset: 'chess' })).body.error).toMatch(/unknown ruleset "chess"/);
      expect((await post(s.url, '/api/games', { ruleset: 'tic-tac-toe', opponent: 'ext:cmd=sh' })).body.error).toMatch(
        /cannot sit at the web table/,
      );
      expect((await post(s.url, '/api/games', { ruleset: 'tic-tac-toe', side: 'Z' })).body.error).toMatch(
        /side "Z" is not a side of tic-tac-toe/,
      );
      expect((await post(s.url, '/api/games', { ruleset: 'tic-tac-toe', scenario: 'nope' })).status).toBe(400);
      expect((await post(s.url, '/api/games', { ruleset: 'tic-tac-toe', colour: 'red' })).body.error).toMatch(/colour/);
      const page = await fetch(`${s.url}game/x`);
      expect(await page.text()).toContain('/app.js');
      expect((await fetch(`${s.url}app.js`)).status).toBe(200);

      const { body } = await post(s.url, '/api/games', {
        ruleset: 'tic-tac-toe',
        side: 'X',
        opponent: 'random',
        seed: '9',
      });
      expect(body.id).toMatch(/^[\w-]{22}$/);
      const c = await connect(s.url, body.id!);
      let m = await c.next(isView((v) => v.offers.length > 0));
      // malformed messages get an error reply, and the game goes on
      c.send('not json');
      expect(await c.next((x) => x.t === 'error')).toMatchObject({ message: 'the message is not JSON' });
      c.send({ t: 'fly' });
      expect(((await c.next((x) => x.t === 'error')) as { message: string }).message).toMatch(/malformed message/);
      c.send({ t: 'act', key: 'c42' });
      expect(await c.next((x) => x.t === 'error')).toMatchObject({ message: '"c42" is not a legal action here' });
      for (let i = 0; i < 9; i++) {
        if (m.t !== 'view' || m.view.result) break;
        const ply = m.view.ply;
        c.send({ t: 'act', key: m.view.offers[0]!.key });
        m = await c.next(isView((v) => v.ply > ply && (v.offers.length > 0 || !!v.result)));
      }
      expect(m.t === 'view' && m.view.result).toBeTruthy();
      // the computer's answers came from the worker pool, with its explanation
      expect(m.t === 'view' && m.view.log.some((st) => st.player === 1 && st.explanation)).toBe(true);
      c.ws.close();

      const r = decodeReplay(new Uint8Array(await (await fetch(`${s.url}api/games/${body.id}/replay`)).arrayBuffer()));
      expect(verifyReplay(getRuleset('tic-tac-toe'), r).ok).toBe(true);
      expect(r.result).not.toBeNull();

      const bad = await connect(s.url, 'no-such-game');
      expect(await bad.next((x) => x.t === 'error')).toMatchObject({
        message: 'no game "no-such-game" here',
        fatal: true,
      });
    } finally {
      await s.close();
    }
  });

  it('a game survives a server restart; take-back and think again; a replay uploads to view or to play on', async () => {
    const db = join(dir, 'b.sqlite');
    let s = await serve({ port: 0, db, workers: 1 });
    let id: string;
    let plyBefore: number;
    let logBefore: string;
    try {
      id = (await post(s.url, '/api/games', { ruleset: 'goofspiel', side: 'A', opponent: 'random', seed: '4' })).body
        .id!;
      const c = await connect(s.url, id);
      let m = await c.next(isView((v) => v.offers.length > 0));
      for (let i = 0; i < 2; i++) {
        const ply = (m as { view: TableView }).view.ply;
        c.send({ t: 'act', key: (m as { view: TableView }).view.offers[0]!.key });
        m = await c.next(isView((v) => v.ply > ply && v.offers.length > 0));
      }
      plyBefore = (m as { view: TableView }).view.ply;
      logBefore = JSON.stringify((m as { view: TableView }).view.log);
      c.ws.close();
    } finally {
      await s.close();
    }
    s = await serve({ port: 0, db, workers: 1 });
    try {
      const c = await connect(s.url, id);
      const m = (await c.next(isView((v) => v.offers.length > 0))) as { view: TableView };
      expect(m.view.ply).toBe(plyBefore);
      expect(JSON.stringify(m.view.log)).toBe(logBefore);
      expect(m.view.canTakeBack).toBeGreaterThan(0);
      c.send({ t: 'takeBack' });
      const back = (await c.next(isView((v) => v.ply < plyBefore && v.offers.length > 0))) as { view: TableView };
      expect(back.view.log.length).toBeLessThan(m.view.log.length);
      // think again: the computer's bid after the one taken back is thought again (its seat is on the move, thinking)
      c.send({ t: 'rethink' });
      expect(await c.next(isView((v) => v.thinking === 1 && v.ply === 2))).toBeTruthy();
      expect(await c.next(isView((v) => v.ply === back.view.ply && v.offers.length > 0))).toBeTruthy();

      // a replay file: view it, or play on from its end
      const bytes = new Uint8Array(await (await fetch(`${s.url}api/games/${id}/replay`)).arrayBuffer());
      const up = async (q: string, b: Uint8Array) =>
        fetch(`${s.url}api/replays?${q}`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream' },
          body: b,
        });
      const viewed = (await (await up('open=view', bytes)).json()) as { id: string; mode: string };
      expect(viewed.mode).toBe('replay');
      const v = await connect(s.url, viewed.id);
      const first = (await v.next(isView(() => true))) as { view: TableView };
      expect(first.view.viewer).toBe(-1);
      expect(first.view.offers).toEqual([]);
      v.send({ t: 'view', ply: 1 });
      expect(await v.next(isView((x) => x.ply === 1))).toBeTruthy();
      v.send({ t: 'act', key: 'bid 1' });
      expect(((await v.next((x) => x.t === 'error')) as { message: string }).message).toMatch(/this is a replay/);
      const resumed = (await (await up('open=resume&side=A&opponent=random', bytes)).json()) as {
        id: string;
        mode: string;
      };
      expect(resumed.mode).toBe('play');
      const r2 = await connect(s.url, resumed.id);
      expect(await r2.next(isView((x) => x.offers.length > 0 && x.ply === back.view.ply))).toBeTruthy();
      const corrupt = await up('open=view', bytes.slice(0, 20));
      expect(corrupt.status).toBe(400);
      expect(((await corrupt.json()) as { error: string }).error).toMatch(/not a replay|not a valid eagles-replay/);
      for (const x of [c, v, r2]) x.ws.close();
    } finally {
      await s.close();
    }
  });

  it('a hot seat of a game with secrets shows each side only its own sealed choices', async () => {
    const s = await serve({ port: 0, db: join(dir, 'c.sqlite'), workers: 1 });
    try {
      const id = (await post(s.url, '/api/games', { ruleset: 'goofspiel', side: 'both', seed: '5' })).body.id!;
      const c = await connect(s.url, id);
      const a = (await c.next(isView((v) => v.offers.length > 0))) as { view: TableView };
      const first = (a.view.toMove as { player: number }).player;
      expect(a.view.viewer).toBe(first);
      c.send({ t: 'act', key: 'bid 3' });
      const b = (await c.next(isView((v) => v.offers.length > 0 && v.ply > a.view.ply))) as { view: TableView };
      expect(b.view.viewer).toBe(1 - first);
      const seen = JSON.stringify(b.view.log) + b.view.text;
      expect(seen).not.toMatch(/bid 3|bids 3/);
      c.ws.close();
    } finally {
      await s.close();
    }
  });

  it('a computer seat that crashes, ends its worker or hangs is reported, and the game goes on after think again', async () => {
    const s = await serve({
      port: 0,
      db: join(dir, 'd.sqlite'),
      workers: 1,
      thinkLimitMs: 1500,
      diagnosticSeats: true,
    });
    try {
      for (const [bot, why] of [
        ['test-crash', /failed: test-crash: deliberate failure/],
        ['test-exit', /failed/],
        ['test-hang', /took longer than 1\.5 s and was stopped/],
      ] as const) {
        const id = (await post(s.url, '/api/games', { ruleset: 'tic-tac-toe', side: 'X', opponent: bot, seed: '1' }))
          .body.id!;
        const c = await connect(s.url, id);
        const m = (await c.next(isView((v) => v.offers.length > 0))) as { view: TableView };
        c.send({ t: 'act', key: m.view.offers[0]!.key });
        const f = (await c.next(isView((v) => !!(v as { failure?: string }).failure))) as {
          view: TableView & { failure: string };
        };
        expect(f.view.failure).toMatch(why);
        expect(f.view.ply).toBe(1); // nothing recorded is lost
        expect(f.view.thinking).toBeUndefined();
        c.send({ t: 'takeBack' });
        expect(await c.next(isView((v) => v.ply === 0 && v.offers.length === 9))).toBeTruthy();
        c.ws.close();
      }
    } finally {
      await s.close();
    }
  });
});
