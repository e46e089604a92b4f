/**
 * Persistent results in SQLite (better-sqlite3), WAL mode, one transaction per finished game, replays stored as blobs
 * beside the results. A tournament or ladder folder holds one `arena.sqlite`. A process killed mid-run loses only
 * the games in flight, which a resume plays again; a recorded game is never played twice.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export interface GameRecord {
  readonly id: string;
  readonly scenario: string;
  readonly seed: string;
  /** Agent spec (or ladder bot name) per seat. */
  readonly seats: readonly string[];
  readonly returns?: readonly number[];
  readonly text?: string;
  readonly plies?: number;
  readonly finalHash?: string;
  /** Why the game did not finish normally (worker died, time limit), if so. */
  readonly error?: string;
  /** Seat that forfeited, if any. */
  readonly forfeit?: number;
}

export interface BotRow {
  readonly name: string;
  readonly spec: string;
  readonly mu: number;
  readonly sigma: number;
  readonly games: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY, scenario TEXT NOT NULL, seed TEXT NOT NULL, seat0 TEXT NOT NULL, seat1 TEXT NOT NULL,
  ret0 REAL, ret1 REAL, text TEXT, plies INTEGER, final_hash TEXT, error TEXT, forfeit INTEGER, replay BLOB,
  seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS commitments (id TEXT PRIMARY KEY, commitment TEXT NOT NULL, secret TEXT NOT NULL, published TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots (name TEXT PRIMARY KEY, spec TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL DEFAULT 0);
`;

/** Another process holds the run folder. */
export class RunFolderBusyError extends Error {}

const DB = 'arena.sqlite';
const LOCK = 'arena.lock';

/**
 * The writer's lock on a run folder: a SQLite file held in exclusive locking mode, so the kernel releases it when
 * the process ends, even by kill -9 (no stale lock files to clear).
 */
class FolderLock {
  private db: Database.Database;
  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.db = new Database(join(dir, LOCK), { timeout: 0 });
    try {
      this.db.pragma('locking_mode = EXCLUSIVE');
      this.db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER)');
      this.db.prepare('INSERT INTO holder(pid) VALUES (?)').run(process.pid);
    } catch (e) {
      this.db.close();
      if ((e as { code?: string }).code === 'SQLITE_BUSY')
        throw new RunFolderBusyError(
          `${dir} is in use by another eagles process (a run, resume or add-bot): wait for it to finish, or use another folder`,
        );
      throw e;
    }
    // a start killed before its database was complete left only a partial file: clear it
    for (const f of readdirSync(dir)) if (f.startsWith(`${DB}.partial-`)) rmSync(join(dir, f), { force: true });
  }
  release(): void {
    this.db.close();
  }
}

export class Store {
  private db: Database.Database;
  private constructor(
    readonly dir: string,
    db: Database.Database,
    private readonly lock: FolderLock | null,
  ) {
    this.db = db;
  }

  /**
   * Open an existing run folder: `write` takes the folder's lock first (one writer at a time; readers such as
   * `arena status` never wait).
   */
  static open(dir: string, mode: 'read' | 'write'): Store {
    const file = join(dir, DB);
    if (!existsSync(file)) throw new Error(`${dir} holds no arena database (arena.sqlite)`);
    const lock = mode === 'write' ? new FolderLock(dir) : null;
    try {
      return new Store(dir, Store.connect(file), lock);
    } catch (e) {
      lock?.release();
      throw e;
    }
  }

  /**
   * Create a run folder's database with its metadata, atomically: it is built under a temporary name and renamed
   * into place, so a process killed at any moment leaves either no database or a complete one. Refused if one exists.
   */
  static create(dir: string, meta: Readonly<Record<string, string>>, exists: string): Store {
    const lock = new FolderLock(dir);
    try {
      const file = join(dir, DB);
      if (existsSync(file)) throw new Error(exists);
      const partial = `${file}.partial-${process.pid}`;
      const tmp = new Database(partial);
      tmp.exec(SCHEMA);
      const put = tmp.prepare('INSERT INTO meta(key, value) VALUES (?, ?)');
      for (const [k, v] of Object.entries(meta)) put.run(k, v);
      tmp.close();
      renameSync(partial, file);
      return new Store(dir, Store.connect(file), lock);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  private static connect(file: string): Database.Database {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    return db;
  }

  static exists(dir: string): boolean {
    return existsSync(join(dir, DB));
  }

  getMeta(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }
  setMeta(key: string, value: string): void {
    this.db
      .prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
      .run(key, value);
  }

  /** Record one finished game (and optionally update ladder bots) in one transaction. */
  recordGame(r: GameRecord, replay: Uint8Array | null, botUpdates: readonly BotRow[] = []): void {
    const tx = this.db.transaction(() => {
      const seq = (this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM games').get() as { n: number }).n;
      this.db
        .prepare(
          'INSERT INTO games(id, scenario, seed, seat0, seat1, ret0, ret1, text, plies, final_hash, error, forfeit, replay, seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
        )
        .run(
          r.id,
          r.scenario,
          r.seed,
          r.seats[0],
          r.seats[1],
          r.returns?.[0] ?? null,
          r.returns?.[1] ?? null,
          r.text ?? null,
          r.plies ?? null,
          r.finalHash ?? null,
          r.error ?? null,
          r.forfeit ?? null,
          replay ? Buffer.from(replay) : null,
          seq,
        );
      for (const b of botUpdates)
        this.db
          .prepare('UPDATE bots SET mu = ?, sigma = ?, games = ? WHERE name = ?')
          .run(b.mu, b.sigma, b.games, b.name);
    });
    tx();
  }

  games(): GameRecord[] {
    const rows = this.db
      .prepare(
        'SELECT id, scenario, seed, seat0, seat1, ret0, ret1, text, plies, final_hash, error, forfeit FROM games ORDER BY seq',
      )
      .all() as Record<string, unknown>[];
    return rows.map((x) => ({
      id: x.id as string,
      scenario: x.scenario as string,
      seed: x.seed as string,
      seats: [x.seat0 as string, x.seat1 as string],
      ...(x.ret0 !== null ? { returns: [x.ret0 as number, x.ret1 as number] } : {}),
      ...(x.text !== null ? { text: x.text as string } : {}),
      ...(x.plies !== null ? { plies: x.plies as number } : {}),
      ...(x.final_hash !== null ? { finalHash: x.final_hash as string } : {}),
      ...(x.error !== null ? { error: x.error as string } : {}),
      ...(x.forfeit !== null ? { forfeit: x.forfeit as number } : {}),
    }));
  }

  replay(id: string): Uint8Array | undefined {
    const row = this.db.prepare('SELECT replay FROM games WHERE id = ?').get(id) as
      | { replay: Buffer | null }
      | undefined;
    return row?.replay ? new Uint8Array(row.replay) : undefined;
  }

  deleteGames(ids: readonly string[]): void {
    const st = this.db.prepare('DELETE FROM games WHERE id = ?');
    this.db.transaction(() => ids.forEach((id) => st.run(id)))();
  }

  /**
   * Commit-reveal dice: before a game, its secret seed's commitment is published here; the seed itself is revealed
   * by the game's record. A game already committed keeps its seed (a resumed run replays it with the same dice).
   */
  commit(id: string, fresh: () => { seed: string; commitment: string }): string {
    const row = this.db.prepare('SELECT secret FROM commitments WHERE id = ?').get(id) as
      | { secret: string }
      | undefined;
    if (row) return row.secret;
    const { seed, commitment } = fresh();
    this.db
      .prepare('INSERT INTO commitments(id, commitment, secret, published) VALUES (?,?,?,?)')
      .run(id, commitment, seed, new Date().toISOString());
    return seed;
  }
  commitment(id: string): { commitment: string; published: string } | undefined {
    return this.db.prepare('SELECT commitment, published FROM commitments WHERE id = ?').get(id) as
      | { commitment: string; published: string }
      | undefined;
  }
  /** Every published commitment, with the seed once its game is recorded (null before). */
  commitments(): { id: string; commitment: string; published: string; seed: string | null }[] {
    return this.db
      .prepare(
        "SELECT c.id, c.commitment, c.published, g.seed FROM commitments c LEFT JOIN games g ON g.id = c.id || '-0' ORDER BY c.published, c.id",
      )
      .all() as { id: string; commitment: string; published: string; seed: string | null }[];
  }

  addBot(b: BotRow): void {
    this.db
      .prepare('INSERT INTO bots(name, spec, mu, sigma, games) VALUES (?,?,?,?,?)')
      .run(b.name, b.spec, b.mu, b.sigma, b.games);
  }
  bots(): BotRow[] {
    return this.db.prepare('SELECT name, spec, mu, sigma, games FROM bots ORDER BY name').all() as BotRow[];
  }

  close(): void {
    this.db.close();
    this.lock?.release();
  }
}
