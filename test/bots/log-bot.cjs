// An external bot for tests that writes every line it hears to the file named by its argument and always plays the
// first legal action: node test/bots/log-bot.cjs FILE
const fs = require('node:fs');
const file = process.argv[2];
fs.writeFileSync(file, '');
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (l) => {
  fs.appendFileSync(file, `${l}\n`);
  const m = JSON.parse(l);
  if (m.type === 'hello') console.log(JSON.stringify({ type: 'ready', name: 'log-bot' }));
  if (m.type === 'decide') console.log(JSON.stringify({ type: 'act', id: m.id, index: 0 }));
});
