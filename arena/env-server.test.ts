/** The env server's protocol as a client meets it: refusals with a code and a clear message, and replays that verify. */
import { describe, expect, it } from 'vitest';
import { decodeReplay, encodeReplay, verifyReplay } from '../engine/core/replay.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import { EnvServer } from './env-server.ts';

type R = { ok: boolean; code?: string; error?: string; result?: any };

describe('env server', () => {
  it('refuses bad requests by code, naming what is wrong, and keeps serving', async () => {
    const s = new EnvServer();
    const call = (r: unknown) => s.handle(r) as Promise<R>;
    expect(await call([1])).toMatchObject({ ok: false, code: 'bad-request' });
    expect(await call({ id: 1, cmd: 'fly' })).toMatchObject({
      ok: false,
      code: 'bad-request',
      error: /unknown cmd "fly"/,
    });
    expect((await call({ id: 2, cmd: 'create', ruleset: 'chess' })).error).toMatch(/unknown ruleset "chess"; known: /);
    expect((await call({ cmd: 'create', ruleset: 'goofspiel', fields: ['pixels'] })).error).toMatch(
      /unknown field "pixels"/,
    );
    expect((await call({ cmd: 'create', ruleset: 'march-of-eagles', opponent: 'grandmaster' })).error).toMatch(
      /unknown agent "grandmaster"/,
    );
    expect((await call({ cmd: 'step', env: 'e99', action: 0 })).code).toBe('unknown-env');
    const c = await call({ cmd: 'create', ruleset: 'kuhn-poker', seed: '1' });
    expect(c.ok).toBe(true);
    const env = c.result.env;
    expect(await call({ cmd: 'step', env, action: 5 })).toMatchObject({ code: 'illegal-action' });
    expect(await call({ cmd: 'step', env, action: 'raise' })).toMatchObject({ code: 'illegal-action' });
    expect(await call({ cmd: 'step', env, action: 1.5 })).toMatchObject({ code: 'bad-request' });
    expect(await call({ cmd: 'restore', env, handle: 'h0' })).toMatchObject({ code: 'unknown-handle' });
    expect((await call({ cmd: 'step', env, action: 0 })).ok).toBe(true); // still serving
  });

  it('plays the dice of a match seed, and writes a replay that verifies', async () => {
    const s = new EnvServer();
    const game = getRuleset('march-of-eagles');
    const finals: string[] = [];
    for (let run = 0; run < 2; run++) {
      const c = (await s.handle({ cmd: 'create', ruleset: 'march-of-eagles', seed: '5', fields: ['count'] })) as R;
      let obs = c.result.obs;
      let i = 0;
      while (!obs.terminal)
        obs = ((await s.handle({ cmd: 'step', env: c.result.env, action: i++ % obs.count })) as R).result.obs;
      const rp = ((await s.handle({ cmd: 'replay', env: c.result.env })) as R).result;
      expect(verifyReplay(game, decodeReplay(encodeReplay(rp)))).toMatchObject({ ok: true });
      finals.push(rp.finalHash);
    }
    expect(finals[1]).toBe(finals[0]);
  });
});
