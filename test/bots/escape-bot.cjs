// A hostile external bot for the sandbox tests: it tries each escape named on its command line at start, prints one
// line "attempt=result ..." on stderr (the server quotes it in the forfeit reason) and exits 3.
//   write:PATH read:PATH list:PATH net:PORT env:NAME cwd files:N mem:MiB cpu spawn:MARKER flood:BYTES ansi
const fs = require('node:fs');
const net = require('node:net');
const { spawn } = require('node:child_process');

const out = [];
const code = (e) => (e && e.code) || (e && e.message) || String(e);

async function attempt(arg) {
  const [what, ...rest] = arg.split(':');
  const val = rest.join(':');
  switch (what) {
    case 'write':
      try {
        fs.writeFileSync(val, 'pwned');
        return 'ok';
      } catch (e) {
        return code(e);
      }
    case 'read':
      try {
        return `ok(${fs.readFileSync(val).length})`;
      } catch (e) {
        return code(e);
      }
    case 'list':
      try {
        return `ok(${fs.readdirSync(val).length})`;
      } catch (e) {
        return code(e);
      }
    case 'net':
      return new Promise((resolve) => {
        const s = net.connect({ host: '127.0.0.1', port: Number(val) });
        s.on('connect', () => {
          s.destroy();
          resolve('ok');
        });
        s.on('error', (e) => resolve(code(e)));
        setTimeout(() => resolve('timeout'), 2000);
      });
    case 'env':
      return process.env[val] === undefined ? 'unset' : 'set';
    case 'envcount':
      return String(Object.keys(process.env).length);
    case 'cwd':
      return `${process.cwd() === process.env.HOME ? 'home' : process.cwd()}(${fs.readdirSync('.').length})`;
    case 'files': {
      let n = 0;
      try {
        for (; n < Number(val); n++) fs.openSync('/dev/null', 'r');
        return `ok(${n})`;
      } catch (e) {
        return `${code(e)}(${n})`;
      }
    }
    case 'mem':
      try {
        const keep = [];
        for (let i = 0; i < Number(val); i++) keep.push(Buffer.alloc(1 << 20, 1));
        return `ok(${keep.length})`;
      } catch (e) {
        return code(e);
      }
    case 'cpu':
      for (;;);
    case 'spawn': {
      // a child that would outlive its game if only the bot were killed, then hang
      spawn('sleep', [val], { stdio: 'ignore' });
      return new Promise(() => undefined);
    }
    case 'flood':
      process.stdout.write('x'.repeat(Number(val)));
      return new Promise(() => undefined);
    case 'ansi':
      process.stderr.write('\x1b[2J\x1b]0;owned\x07 cleared\n');
      return 'sent';
    default:
      return 'unknown';
  }
}

(async () => {
  for (const a of process.argv.slice(2)) out.push(`${a.split(':')[0]}=${await attempt(a)}`);
  process.stderr.write(`${out.join(' ')}\n`);
  process.exit(3);
})();
