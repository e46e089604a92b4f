/** The web table's one HTML page and its stylesheet; the script is `main.tsx`, bundled when the server starts. */
export const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>eagles — the web table</title>
<link rel="stylesheet" href="/app.css">
<link rel="icon" href="data:,">
</head>
<body>
<div id="app">loading…</div>
<script type="module" src="/app.js"></script>
</body>
</html>
`;

export const CSS = `
:root { --a: #2b5cab; --b: #b33a3a; --n: #777; --bg: #f7f5ef; --line: #d8d2c0; font-family: system-ui, sans-serif; }
body { margin: 0; background: var(--bg); color: #222; }
header { display: flex; gap: 1em; align-items: baseline; padding: .4em 1em; background: #2d2a24; color: #f3ecd8; flex-wrap: wrap; }
header h1 { font-size: 1.1em; margin: 0; }
header a { color: #f3ecd8; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 27em; gap: .6em; padding: .6em; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; } }
section.panel { background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: .5em .7em; margin-bottom: .6em; }
section.panel h2 { font-size: .95em; margin: .1em 0 .4em; }
.board { background: #fff; border: 1px solid var(--line); border-radius: 4px; overflow: auto; }
.board svg { display: block; width: 100%; height: auto; max-height: 80vh; }
.board pre { margin: 0; padding: .5em; font-size: 13px; line-height: 1.2; }
.offers { max-height: 40vh; overflow: auto; }
.offers button, .outcomes button { display: block; width: 100%; text-align: left; margin: 2px 0; padding: 3px 6px; border: 1px solid var(--line); background: #fbfaf6; border-radius: 3px; cursor: pointer; font: inherit; font-size: .9em; }
.offers button:hover, .outcomes button:hover { background: #efe9d8; }
.offers button code { color: #555; font-size: .85em; margin-left: .5em; }
.controls { display: flex; gap: .4em; flex-wrap: wrap; }
.controls button, .controls a, form button { padding: 4px 10px; font: inherit; cursor: pointer; }
.log { max-height: 45vh; overflow: auto; font-size: .85em; }
.log .step { border-bottom: 1px dotted var(--line); padding: 2px 0; }
.log .ev { color: #444; margin-left: 1em; }
.log .rule { color: #8a5a00; font-family: monospace; }
.log .why { color: #2d5d2d; margin-left: 1em; }
.legend { font-size: .85em; columns: 2; }
.legend div { break-inside: avoid; }
.note { color: #555; font-size: .9em; }
.error { color: #a00; font-weight: 600; }
.thinking { color: #8a5a00; }
.side-0 { color: var(--a); } .side-1 { color: var(--b); }
form.lobby { display: grid; grid-template-columns: 9em 1fr; gap: .4em .8em; max-width: 40em; align-items: center; }
.slider { display: flex; gap: .5em; align-items: center; }
.slider input[type=range] { flex: 1; }
.piece { cursor: pointer; }
.piece.selected polygon, .piece.selected rect { stroke: #f0a000; stroke-width: .25; }
`;
