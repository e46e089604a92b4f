/**
 * The web table in a real browser: Debian's chromium driven by playwright-core (`.ci/run` installs chromium when it
 * is missing; a machine without it skips these tests outside CI). Whole games are played by clicking the offered
 * actions, as a person would.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import seedrandom from 'seedrandom';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve } from './server.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => spawnSync(p, ['--version'], { encoding: 'utf8' }).status === 0,
);
/** The page's document, in the functions playwright runs in the browser (this file is type-checked without the DOM). */
declare const document: {
  querySelector(s: string): { getAttribute(n: string): string | null } | null;
  querySelectorAll(s: string): { length: number };
};
const dir = mkdtempSync(join(tmpdir(), 'eagles-browser-'));

describe.skipIf(!CHROMIUM && !process.env.CI)(
  `the web table in chromium${CHROMIUM ? '' : ' (chromium is not installed)'}`,
  () => {
    let browser: Browser;
    let site: Awaited<ReturnType<typeof serve>>;
    beforeAll(async () => {
      if (!CHROMIUM) throw new Error('chromium is not installed (Debian package chromium): .ci/run installs it');
      site = await serve({ port: 0, db: join(dir, 'games.sqlite'), workers: 2 });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    });
    afterAll(async () => {
      await browser?.close();
      await site?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const opened: (Page & { errors?: string[] })[] = [];
    afterEach(() => {
      // any console error or uncaught exception in a page fails the test that opened it
      const errs = opened.splice(0).flatMap((p) => p.errors ?? []);
      expect(errs).toEqual([]);
    });
    const ply = async (p: Page) => Number(await p.getAttribute('[data-ply]', 'data-ply'));

    /** Click offer `pick` (an index into the offers) and wait until the position moves on. */
    async function click(p: Page, pick: (n: number) => number): Promise<void> {
      const before = await ply(p);
      const offers = p.locator('.offers [data-action-key]');
      const n = await offers.count();
      await offers.nth(pick(n)).click();
      await p.waitForFunction(
        (b) => Number(document.querySelector('[data-ply]')?.getAttribute('data-ply')) > b,
        before,
        {
          timeout: 60_000,
        },
      );
    }

    /** Wait until it is the person's turn (an offer listed) or the game is over. */
    async function settle(p: Page): Promise<'turn' | 'over'> {
      await p.waitForSelector('.offers [data-action-key], [data-over=yes]', { timeout: 60_000 });
      return (await p.getAttribute('[data-ply]', 'data-over')) === 'yes' ? 'over' : 'turn';
    }

    async function page(path: string, board = true): Promise<Page> {
      const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const errors: string[] = [];
      p.on('pageerror', (e) => errors.push(e.message));
      p.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      (p as Page & { errors: string[] }).errors = errors;
      opened.push(p as Page & { errors: string[] });
      await p.goto(`${site.url}${path.replace(/^\//, '')}`);
      await p.waitForSelector(board ? '[data-ply]' : 'form.lobby', { timeout: 60_000 });
      return p;
    }

    const games: [string, string][] = [
      ['march-of-eagles', 'open-field'],
      ['eagles-of-the-empire', 'hohenwald-outposts'],
      ['age-of-eagles', 'quick-test'],
      ['napoleons-eagles', 'quick-test'],
      ['charge-eagles-rising', 'quick-test'],
      ['tic-tac-toe', 'standard'],
      ['goofspiel', 'standard'],
      ['kuhn-poker', 'standard'],
    ];
    it.each(games)(
      'plays a whole game of %s (%s) against random by clicking',
      { timeout: 300_000 },
      async (ruleset, scenario) => {
        const p = await page(`/play?ruleset=${ruleset}&scenario=${scenario}&side=0&opponent=random&seed=b1`);
        expect(await p.getAttribute('[data-ply]', 'data-ruleset')).toBe(ruleset);
        expect(p.url()).toMatch(/\/game\/[\w-]{22}$/);
        const u = seedrandom.alea(`browser/${ruleset}`);
        let clicks = 0;
        while ((await settle(p)) === 'turn') {
          // EAGLES_SCREENSHOTS=docs/screenshots: the README's pictures, taken in the middle of each game
          if (clicks === 30 && process.env.EAGLES_SCREENSHOTS) {
            await p.locator('header').scrollIntoViewIfNeeded();
            await p.screenshot({ path: join(process.env.EAGLES_SCREENSHOTS, `${ruleset}.png`) });
          }
          await click(p, (n) => Math.floor(u() * n));
          if (++clicks > 3000) throw new Error('the game did not end in 3000 clicks');
        }
        expect(await p.locator('[data-testid=result]').textContent()).toMatch(/Result.+/);
        expect(clicks).toBeGreaterThan(0);
        // the board is a drawing for the Eagles rulesets (a table of footprints, or the area map), text for the others
        if (!['tic-tac-toe', 'goofspiel', 'kuhn-poker'].includes(ruleset))
          expect(await p.locator('.board svg').count()).toBe(1);
        expect((p as Page & { errors: string[] }).errors).toEqual([]);
        await p.close();
      },
    );

    it('takes a move back, lets the computer think again, and survives a reload', { timeout: 120_000 }, async () => {
      const p = await page('/play?ruleset=tic-tac-toe&side=X&opponent=random&seed=t2');
      await settle(p);
      await click(p, () => 0);
      await settle(p);
      const after = await ply(p);
      expect(after).toBe(2);
      const log = await p.locator('.log').textContent();
      await p.click('[data-testid=take-back]');
      await p.waitForFunction(() => document.querySelector('[data-ply]')?.getAttribute('data-ply') === '0');
      await settle(p);
      expect(await p.locator('.offers [data-action-key]').count()).toBe(9);
      await click(p, () => 0);
      await settle(p);
      await p.click('[data-testid=rethink]');
      await p.waitForFunction(() => document.querySelectorAll('.offers [data-action-key]').length === 7);
      await p.reload();
      await p.waitForSelector('[data-ply="2"]');
      await settle(p);
      expect(await p.locator('.offers [data-action-key]').count()).toBe(7);
      expect(await p.locator('.log').textContent()).toMatch(/X: /);
      expect(typeof log).toBe('string');
      await p.close();
    });

    it('selecting a piece on the table lists the actions that name it', { timeout: 120_000 }, async () => {
      const p = await page('/play?ruleset=napoleons-eagles&scenario=quick-test&side=first&opponent=hard&seed=p3');
      // bid, then reach an activation: the first side's units are offered by name
      for (let i = 0; i < 40; i++) {
        await settle(p);
        if ((await p.locator('.offers [data-action-key^="activate "]').count()) > 0) break;
        await click(p, () => 0);
      }
      const key = await p.locator('.offers [data-action-key^="activate "]').first().getAttribute('data-action-key');
      expect(key).toMatch(/^activate \S+/);
      const unit = key!.split(' ')[1]!;
      await p.locator(`[data-piece="${unit}"]`).first().click();
      const listed = await p
        .locator('.offers [data-action-key]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-action-key')));
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((k) => k!.split(/\s+/).includes(unit))).toBe(true);
      await p.close();
    });

    it('downloads a replay, uploads it to the viewer, and steps through it with the slider', {
      timeout: 120_000,
    }, async () => {
      const p = await page('/play?ruleset=tic-tac-toe&side=X&opponent=random&seed=r4');
      while ((await settle(p)) === 'turn') await click(p, () => 0);
      const total = await ply(p);
      const [download] = await Promise.all([p.waitForEvent('download'), p.click('[data-testid=download]')]);
      const file = join(dir, 'game.replay');
      await download.saveAs(file);
      expect(readFileSync(file).length).toBeGreaterThan(50);
      const lobby = await page('/', false);
      await lobby.setInputFiles('[data-testid=upload-view]', file);
      await lobby.waitForURL(/\/replay\//);
      await lobby.waitForSelector(`[data-ply="${total}"]`);
      await lobby.click('[data-testid=back]');
      await lobby.waitForSelector(`[data-ply="${total - 1}"]`);
      await lobby.locator('.slider input[type=range]').fill('1');
      await lobby.waitForSelector('[data-ply="1"]');
      expect(await lobby.locator('.offers [data-action-key]').count()).toBe(0);
      await p.close();
      await lobby.close();
    });

    it('assistant mode: the person enters the dice and is told the computer’s moves', {
      timeout: 120_000,
    }, async () => {
      const p = await page(
        '/play?ruleset=march-of-eagles&scenario=open-field&side=A&opponent=hard&seed=a5&mode=assist',
      );
      // the first roll (the roll-off for sides) waits for the person
      await p.waitForSelector('.outcomes');
      const faces = p.locator('[data-testid=faces] input');
      if ((await faces.count()) > 0) {
        await faces.first().fill('9');
        await p.click('[data-testid=faces] button[type=submit]');
        await p.waitForSelector('[data-testid=error]');
        expect(await p.locator('[data-testid=error]').textContent()).toMatch(/9 is not a face of a D6/);
        for (let i = 0; i < (await faces.count()); i++) await faces.nth(i).fill(String((i % 6) + 1));
        await p.click('[data-testid=faces] button[type=submit]');
      } else await p.locator('.outcomes [data-action-key]').first().click();
      await p.waitForFunction(() => Number(document.querySelector('[data-ply]')?.getAttribute('data-ply')) > 0);
      expect(await p.locator('.log').textContent()).toMatch(/dice/);
      await p.close();
    });
  },
);
