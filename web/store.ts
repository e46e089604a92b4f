/**
 * The web table's saved games, in SQLite: per game its unguessable id, what it was opened with (ruleset, the
 * scenario itself, seed, seats, mode, the viewing side) and its log of choices. A game is written after every step,
 * so a reload or a server restart resumes it where it was.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { LoggedChoice, TableSpec } from './session.ts';

export interface SavedGame {
  readonly id: string;
  readonly spec: TableSpec;
  readonly scenario: unknown;
  readonly viewer: number;
  readonly log: readonly LoggedChoice[];
  readonly updated: number;
}

export class GameStore {
  private db: Database.Database;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS games (
      id TEXT PRIMARY KEY,
      spec TEXT NOT NULL,
      scenario TEXT NOT NULL,
      viewer INTEGER NOT NULL,
      log TEXT NOT NULL,
      created INTEGER NOT NULL,
      updated INTEGER NOT NULL
    )`);
  }

  create(id: string, spec: TableSpec, scenario: unknown, viewer: number, log: readonly LoggedChoice[] = []): void {
    const now = Date.now();
    this.db
      .prepare('INSERT INTO games (id, spec, scenario, viewer, log, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, JSON.stringify(spec), JSON.stringify(scenario), viewer, JSON.stringify(log), now, now);
  }

  saveLog(id: string, log: readonly LoggedChoice[]): void {
    this.db.prepare('UPDATE games SET log = ?, updated = ? WHERE id = ?').run(JSON.stringify(log), Date.now(), id);
  }

  load(id: string): SavedGame | undefined {
    const row = this.db.prepare('SELECT * FROM games WHERE id = ?').get(id) as
      | { id: string; spec: string; scenario: string; viewer: number; log: string; updated: number }
      | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      spec: JSON.parse(row.spec) as TableSpec,
      scenario: JSON.parse(row.scenario) as unknown,
      viewer: row.viewer,
      log: JSON.parse(row.log) as LoggedChoice[],
      updated: row.updated,
    };
  }

  close(): void {
    this.db.close();
  }
}
