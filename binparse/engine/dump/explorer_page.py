"""The explorer page's own style and script (inlined into every page: it loads nothing).

The script reads the page's data: `nodes` (one row per field, element and instance, in the walk's
order: depth, name, type, value, start, end, first bit, end bit, whether it lies in processed bytes,
kind), `meta` (sizes) and the file's bytes (base64, one `<script type="application/octet-stream">`
per chunk, decoded only when a page of the hex view shows them). It shows the tree (children made
when a node is opened, long repeats a slice at a time) beside a hex view of one page of bytes.
Choosing a field highlights its bytes (a field in bytes a `process` made: the bytes it was made
from); choosing a byte selects the innermost field that covers it. Every text from the file is set
as text (`textContent`), never as markup. `#click=PATH&byte=N…` in the page's address makes those
choices once the page is loaded, as a click would; the page records what is chosen in `data-selected`
and `data-range` of its body, and each choice (the field, its range, the hex cells highlighted) in
`data-log` (what tests read).
"""

STYLE = """
body{margin:0;font:13px/1.35 ui-monospace,Menlo,Consolas,monospace;color:#222;display:flex;flex-direction:column;
height:100vh}
header{padding:6px 10px;background:#f3f3f3;border-bottom:1px solid #ccc}
header h1{font-size:14px;margin:0}
#notes{color:#8a4b00}
#info{white-space:pre-wrap;min-height:2.7em}
main{flex:1;display:flex;min-height:0}
#tree{flex:1 1 50%;overflow:auto;padding:4px 8px;border-right:1px solid #ccc}
#hexpane{flex:1 1 50%;overflow:auto;padding:4px 8px}
.n{white-space:nowrap}
.n>.row{cursor:pointer;padding:0 2px}
.n>.row:hover{background:#eef}
.n.sel>.row{background:#ffe08a}
.kids{margin-left:16px}
.tog{display:inline-block;width:1.2em;color:#666}
.name{color:#05a}
.type{color:#777;margin-left:.6em}
.val{margin-left:.6em}
.omit .val{color:#a00}
.more{color:#05a;cursor:pointer;text-decoration:underline}
#nav button,#nav input{font:inherit}
.line{white-space:pre}
.off{color:#999}
.b{cursor:pointer;padding:0 1px}
.b.hl,.c.hl{background:#ffd24d}
.b.out{color:#bbb}
"""

SCRIPT = r"""
(function () {
  "use strict";
  const N = JSON.parse(document.getElementById("nodes").textContent);
  const M = JSON.parse(document.getElementById("meta").textContent);
  const PAGE = M.page, CHUNK = M.chunk;
  const parent = new Int32Array(N.length), kids = [];
  const stack = [];
  for (let i = 0; i < N.length; i++) {
    const d = N[i][0];
    while (stack.length > d) stack.pop();
    parent[i] = stack.length ? stack[stack.length - 1] : -1;
    (kids[parent[i] + 1] = kids[parent[i] + 1] || []).push(i);
    stack.push(i);
  }
  const childrenOf = i => kids[i + 1] || [];
  const paths = [];
  function path(i) {
    if (paths[i] !== undefined) return paths[i];
    const name = N[i][1], p = parent[i];
    let r;
    if (p < 0) r = M.rooted ? "" : name;
    else {
      const up = path(p);
      r = name[0] === "[" ? up + name : up ? up + "." + name : name;
    }
    return (paths[i] = r);
  }
  const chunks = {};
  function bytesOf(k) {
    if (!(k in chunks)) {
      const el = document.getElementById("d" + k);
      const text = el ? atob(el.textContent.trim()) : "";
      const a = new Uint8Array(text.length);
      for (let j = 0; j < text.length; j++) a[j] = text.charCodeAt(j);
      chunks[k] = a;
    }
    return chunks[k];
  }
  function byteAt(o) {
    if (o >= M.embedded) return -1;
    return bytesOf(Math.floor(o / CHUNK))[o % CHUNK];
  }
  const tree = document.getElementById("tree"), hex = document.getElementById("hex");
  const info = document.getElementById("info"), elOf = {};
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function nodeEl(i) {
    const n = N[i], box = el("div", "n" + (n[9] === "o" ? " omit" : ""));
    box.id = "n" + i;
    const row = el("div", "row");
    const has = childrenOf(i).length > 0;
    row.appendChild(el("span", "tog", has ? "\u25b8" : ""));
    row.appendChild(el("span", "name", n[1]));
    if (n[2]) row.appendChild(el("span", "type", n[2]));
    if (n[3]) row.appendChild(el("span", "val", n[3]));
    row.addEventListener("click", () => { if (has) toggle(i); select(i); });
    box.appendChild(row);
    elOf[i] = box;
    return box;
  }
  function fill(box, i, from) {
    const list = childrenOf(i), stop = Math.min(list.length, from + 200);
    let kidsBox = box.querySelector(":scope > .kids");
    if (!kidsBox) { kidsBox = el("div", "kids"); box.appendChild(kidsBox); }
    const old = kidsBox.querySelector(":scope > .more");
    if (old) old.remove();
    for (let k = from; k < stop; k++) kidsBox.appendChild(nodeEl(list[k]));
    if (stop < list.length) {
      const more = el("div", "more", "\u2026 " + (list.length - stop) + " more");
      more.addEventListener("click", () => fill(box, i, stop));
      kidsBox.appendChild(more);
    }
  }
  function open(i) {
    const box = elOf[i];
    if (!box || box.dataset.open) return;
    box.dataset.open = "1";
    fill(box, i, 0);
    box.querySelector(":scope > .row > .tog").textContent = "\u25be";
  }
  function toggle(i) {
    const box = elOf[i];
    if (!box.dataset.open) { open(i); return; }
    const k = box.querySelector(":scope > .kids");
    if (k) k.hidden = !k.hidden;
    box.querySelector(":scope > .row > .tog").textContent = k && k.hidden ? "\u25b8" : "\u25be";
  }
  function reveal(i) {
    const chain = [];
    for (let j = parent[i]; j >= 0; j = parent[j]) chain.unshift(j);
    for (const j of chain) {
      open(j);
      const k = elOf[j].querySelector(":scope > .kids");
      if (k) k.hidden = false;
      const list = childrenOf(j), next = chain[chain.indexOf(j) + 1] ?? i;
      while (!elOf[next] && elOf[j].querySelector(":scope > .kids > .more")) {
        fill(elOf[j], j, elOf[j].querySelector(":scope > .kids").children.length - 1);
      }
      if (list.length === 0) break;
    }
  }
  let sel = null, page = 0;
  function inFile(i) {
    let j = i;
    while (j >= 0 && N[j][8]) j = parent[j];
    return j;
  }
  function select(i) {
    if (sel !== null && elOf[sel]) elOf[sel].classList.remove("sel");
    sel = i;
    reveal(i);
    elOf[i].classList.add("sel");
    const n = N[i], j = inFile(i), b = document.body;
    b.dataset.selected = path(i);
    const where = n[4] === null ? "no bytes (a value, or an if that is false)"
      : n[5] === null ? "from byte " + n[4] + " (it breaks off: where it ends is not known)"
      : (n[8] ? "bytes " + n[4] + ".." + n[5] + " of the bytes a process made, from file bytes " +
         N[j][4] + ".." + N[j][5] : "bytes " + n[4] + ".." + n[5] + " (" + (n[5] - n[4]) + ")") +
        (n[6] !== null ? ", bits " + n[6] + ".." + n[7] : "");
    info.textContent = path(i) + "  " + n[2] + "\n" + where + (n[3] ? "\n" + n[3] : "");
    if (j >= 0 && N[j][4] !== null) {
      b.dataset.range = N[j][4] + " " + (N[j][5] === null ? N[j][4] : N[j][5]);
      show(Math.floor(N[j][4] / PAGE));
    } else {
      delete b.dataset.range;
      paint();
    }
  }
  function innermost(o) {
    let best = -1;
    for (let i = 0; i < N.length; i++) {
      const n = N[i];
      if (!n[8] && n[4] !== null && n[4] <= o && o < n[5] && (best < 0 || n[0] >= N[best][0])) best = i;
    }
    return best;
  }
  function paint() {
    const j = sel === null ? -1 : inFile(sel);
    const s = j >= 0 ? N[j][4] : null, e = j >= 0 ? N[j][5] : null;
    for (const c of hex.querySelectorAll("[data-o]")) {
      const o = +c.dataset.o;
      c.classList.toggle("hl", s !== null && s <= o && o < e);
    }
  }
  function show(p) {
    page = Math.max(0, Math.min(p, Math.max(0, Math.ceil(M.size / PAGE) - 1)));
    hex.textContent = "";
    const start = page * PAGE, stop = Math.min(M.size, start + PAGE);
    for (let o = start; o < stop; o += 16) {
      const line = el("div", "line");
      line.appendChild(el("span", "off", o.toString(16).padStart(8, "0") + "  "));
      const text = [];
      for (let k = o; k < o + 16; k++) {
        if (k >= stop) { line.appendChild(el("span", "", "   ")); continue; }
        const v = byteAt(k);
        const c = el("span", "b" + (v < 0 ? " out" : ""), v < 0 ? "··" : v.toString(16).padStart(2, "0"));
        c.dataset.o = k;
        c.addEventListener("click", () => { const i = innermost(k); if (i >= 0) select(i); });
        line.appendChild(c);
        line.appendChild(document.createTextNode(k % 8 === 7 ? "  " : " "));
        text.push(v < 0 ? " " : v >= 32 && v < 127 ? String.fromCharCode(v) : ".");
      }
      line.appendChild(el("span", "c", text.join("")));
      hex.appendChild(line);
    }
    document.getElementById("where").textContent = "bytes " + start + ".." + stop + " of " + M.size;
    paint();
  }
  document.getElementById("prev").addEventListener("click", () => show(page - 1));
  document.getElementById("next").addEventListener("click", () => show(page + 1));
  document.getElementById("go").addEventListener("click", () => {
    const o = parseInt(document.getElementById("at").value, 0);
    if (!isNaN(o)) show(Math.floor(o / PAGE));
  });
  for (const i of childrenOf(-1)) tree.appendChild(nodeEl(i));
  for (const i of childrenOf(-1)) open(i);
  show(0);
  const log = [];
  for (const h of decodeURIComponent(location.hash.slice(1)).split("&")) {
    if (h.startsWith("click=")) {
      const want = h.slice(6);
      for (let i = 0; i < N.length; i++) {
        if (path(i) === want) { reveal(i); elOf[i].querySelector(":scope > .row").click(); break; }
      }
    } else if (h.startsWith("byte=")) {
      const o = +h.slice(5);
      show(Math.floor(o / PAGE));
      const c = hex.querySelector('[data-o="' + o + '"]');
      if (c) c.click();
    } else continue;
    log.push({ choice: h, selected: document.body.dataset.selected || null, range: document.body.dataset.range || null,
               cells: Array.from(hex.querySelectorAll(".b.hl"), c => +c.dataset.o) });
  }
  if (log.length) document.body.dataset.log = JSON.stringify(log);
})();
"""
