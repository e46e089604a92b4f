/**
 * Reference external bot in TypeScript: plays uniformly random legal actions over the newline-delimited JSON
 * protocol (see README.md, "Bots in any language"). Run it as: ext:cmd=node --import ./node_modules/tsx/dist/loader.mjs arena/bots/random-bot.ts
 */
import { createInterface } from 'node:readline';

const send = (msg: unknown) => process.stdout.write(JSON.stringify(msg) + '\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line) as { type: string; id?: number; legal?: { index: number; key: string }[] };
  if (msg.type === 'hello') send({ type: 'ready', name: 'ts-random' });
  else if (msg.type === 'decide')
    send({ type: 'act', id: msg.id, index: Math.floor(Math.random() * msg.legal!.length), note: 'random' });
  else if (msg.type === 'end') process.exit(0);
});
