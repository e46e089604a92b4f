// A deliberately misbehaving external bot for tests: node test/bots/bad-bot.cjs garbage|illegal|silent|exit
const mode = process.argv[2];
const rl = require('readline').createInterface({ input: process.stdin });
rl.on('line', (l) => {
  const m = JSON.parse(l);
  if (m.type === 'hello') console.log(JSON.stringify({ type: 'ready' }));
  if (m.type !== 'decide') return;
  if (mode === 'garbage') console.log('hello there');
  else if (mode === 'illegal') console.log(JSON.stringify({ type: 'act', id: m.id, index: 999 }));
  else if (mode === 'exit') {
    console.error('boom');
    process.exit(7);
  }
  // silent: never answers
});
