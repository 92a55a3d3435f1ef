// The Ludus replay player: loads the embedded document (or a dropped file),
// drives playback, and draws everything around the board. Game renderers
// (games/<game>.js) register with Ludus.register; see docs/viewer.md.
"use strict";
(function () {
  const L = (window.Ludus = window.Ludus || {});
  L.renderers = L.renderers || {};

  /// A renderer: { game, accepts(view), draw(ctx, scene), series(view, seats, frame), legend, init(player, view) }.
  L.register = function (renderer) {
    L.renderers[renderer.game] = renderer;
  };

  // ---- Seats: colour (Okabe–Ito, safe for colour-blind eyes) plus a shape,
  // a fill pattern and a line dash, so no seat is told apart by colour alone.
  L.colors = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
  L.neutral = "#9a9a9a";
  L.shapes = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star", "cross"];
  L.dashes = [[], [7, 3], [2, 3], [8, 3, 2, 3], [12, 4], [4, 4], [1, 2], [10, 2, 2, 2, 2, 2]];
  L.color = (seat) => (seat == null || seat < 0 ? L.neutral : L.colors[seat % L.colors.length]);
  L.shape = (seat) => L.shapes[seat % L.shapes.length];

  /// Adds the outline of `shape` centred on (x, y), radius r, to the current path.
  L.shapePath = function (ctx, shape, x, y, r) {
    const poly = (n, rot, rr) => {
      for (let i = 0; i < n; i++) {
        const a = rot + (i * 2 * Math.PI) / n;
        const px = x + rr * Math.cos(a), py = y + rr * Math.sin(a);
        if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
      }
      ctx.closePath();
    };
    switch (shape) {
      case "square": ctx.rect(x - r * 0.86, y - r * 0.86, r * 1.72, r * 1.72); break;
      case "triangle": poly(3, -Math.PI / 2, r * 1.15); break;
      case "diamond": poly(4, 0, r * 1.15); break;
      case "pentagon": poly(5, -Math.PI / 2, r * 1.05); break;
      case "hexagon": poly(6, 0, r * 1.02); break;
      case "star":
        for (let i = 0; i < 10; i++) {
          const a = -Math.PI / 2 + (i * Math.PI) / 5, rr = i % 2 ? r * 0.5 : r * 1.15;
          if (i === 0) ctx.moveTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
          else ctx.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
        }
        ctx.closePath();
        break;
      case "cross": {
        const a = r * 0.35;
        ctx.moveTo(x - a, y - r); ctx.lineTo(x + a, y - r); ctx.lineTo(x + a, y - a); ctx.lineTo(x + r, y - a);
        ctx.lineTo(x + r, y + a); ctx.lineTo(x + a, y + a); ctx.lineTo(x + a, y + r); ctx.lineTo(x - a, y + r);
        ctx.lineTo(x - a, y + a); ctx.lineTo(x - r, y + a); ctx.lineTo(x - r, y - a); ctx.lineTo(x - a, y - a);
        ctx.closePath();
        break;
      }
      default: ctx.moveTo(x + r, y); ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
  };

  /// Draws a seat's mark (its shape in its colour); seat null is neutral (a grey circle).
  L.mark = function (ctx, seat, x, y, r, opts = {}) {
    ctx.beginPath();
    L.shapePath(ctx, seat == null || seat < 0 ? "circle" : L.shape(seat), x, y, r);
    ctx.fillStyle = opts.fill || L.color(seat);
    ctx.globalAlpha = opts.alpha == null ? 1 : opts.alpha;
    ctx.fill();
    ctx.globalAlpha = 1;
    if (opts.stroke !== false) {
      ctx.lineWidth = opts.lineWidth || Math.max(1, r / 6);
      ctx.strokeStyle = opts.stroke || "#fff";
      ctx.stroke();
    }
  };

  const patternCache = new Map();
  /// A fill pattern per seat (plain, hatched, dotted, crossed...): the second cue on areas.
  L.pattern = function (ctx, seat, alpha = 0.55) {
    const dpr = window.devicePixelRatio || 1;
    const key = seat + "/" + alpha + "/" + dpr;
    const make = (tile) => {
      // The tile is in device pixels; the context is scaled to CSS pixels.
      const p = ctx.createPattern(tile, "repeat");
      p.setTransform(new DOMMatrix([1 / dpr, 0, 0, 1 / dpr, 0, 0]));
      return p;
    };
    if (patternCache.has(key)) return make(patternCache.get(key));
    const tile = document.createElement("canvas");
    const n = Math.round(8 * dpr);
    tile.width = tile.height = n;
    const t = tile.getContext("2d");
    t.globalAlpha = alpha;
    t.fillStyle = L.color(seat);
    t.fillRect(0, 0, n, n);
    t.globalAlpha = 1;
    t.strokeStyle = "rgba(255,255,255,0.75)";
    t.fillStyle = "rgba(255,255,255,0.75)";
    t.lineWidth = n / 8;
    switch (seat % 4) {
      case 1: t.beginPath(); t.moveTo(0, n); t.lineTo(n, 0); t.moveTo(-n / 2, n / 2); t.lineTo(n / 2, -n / 2); t.moveTo(n / 2, n * 1.5); t.lineTo(n * 1.5, n / 2); t.stroke(); break;
      case 2: t.beginPath(); t.arc(n / 2, n / 2, n / 7, 0, 2 * Math.PI); t.fill(); break;
      case 3: t.beginPath(); t.moveTo(n / 2, 0); t.lineTo(n / 2, n); t.moveTo(0, n / 2); t.lineTo(n, n / 2); t.stroke(); break;
      default: break;
    }
    patternCache.set(key, tile);
    return make(tile);
  };

  L.lerp = (a, b, t) => a + (b - a) * t;
  L.ease = (t) => (t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2);

  /// Text with a light halo, readable on any fill.
  L.text = function (ctx, text, x, y, size, color = "#111", align = "center") {
    ctx.font = `600 ${size}px system-ui, sans-serif`;
    ctx.textAlign = align;
    ctx.textBaseline = "middle";
    ctx.lineWidth = Math.max(2, size / 4);
    ctx.strokeStyle = "rgba(255,255,255,0.9)";
    ctx.lineJoin = "round";
    ctx.strokeText(text, x, y);
    ctx.fillStyle = color;
    ctx.fillText(text, x, y);
  };

  L.fmt = function (v) {
    if (v == null || Number.isNaN(v)) return "–";
    if (Number.isInteger(v)) return String(v);
    return String(Math.round(v * 1000) / 1000);
  };

  // ---- The fallback renderer: any game. Bars of the scores, the turn, and
  // the state as JSON beside the board.
  const fallback = {
    game: "*",
    legend: "no board for this match: the scores as bars, the state as JSON beside",
    accepts: () => true,
    draw(ctx, s) {
      const { width: w, height: h } = s;
      const n = s.seats.length;
      const scores = s.frame.scores || [];
      const max = Math.max(1e-9, ...scores.map((v) => Math.abs(v || 0)));
      L.text(ctx, `turn ${s.turn}`, w / 2, 28, 20, "#333");
      const top = 60, bottom = h - 50, bw = Math.min(90, (w * 0.8) / Math.max(1, n));
      for (let i = 0; i < n; i++) {
        const x = w / 2 + (i - (n - 1) / 2) * bw * 1.3;
        const v = scores[i] || 0;
        const bh = ((bottom - top) * Math.abs(v)) / max;
        ctx.fillStyle = L.pattern(ctx, i, 0.8);
        ctx.fillRect(x - bw / 2, bottom - bh, bw, bh);
        ctx.strokeStyle = L.color(i);
        ctx.lineWidth = 2;
        ctx.strokeRect(x - bw / 2, bottom - bh, bw, bh);
        L.mark(ctx, i, x, bottom + 16, 8);
        L.text(ctx, L.fmt(scores[i]), x, bottom - bh - 12, 13);
      }
    },
  };

  // ---- The document.
  function decodeBase64(text) {
    const bin = atob(text.trim());
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }

  async function gunzip(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return await new Response(stream).text();
  }

  /// Bytes of a dropped file (JSON, or gzip of it) to a document.
  async function parseFile(bytes) {
    const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? await gunzip(bytes) : new TextDecoder().decode(bytes);
    return toDocument(text);
  }

  /// The text of the value at `path` (member names, one per level of
  /// objects) in the JSON `text`, as written there; null where there is none.
  /// Only what comes before it is scanned, and nested values are skipped.
  function rawMember(text, path) {
    let i = 0;
    const space = () => { while (i < text.length && " \t\n\r".includes(text[i])) i++; };
    const string = () => { // at the opening quote; ends after the closing one
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      i++;
    };
    const value = () => {
      space();
      const start = i;
      if (text[i] === '"') string();
      else if (text[i] === "{" || text[i] === "[") {
        let depth = 0;
        do {
          if (text[i] === '"') { string(); continue; }
          if (text[i] === "{" || text[i] === "[") depth++;
          else if (text[i] === "}" || text[i] === "]") depth--;
          i++;
        } while (depth > 0 && i < text.length);
      } else while (i < text.length && !",}] \t\n\r".includes(text[i])) i++;
      return text.slice(start, i);
    };
    for (const name of path) {
      space();
      if (text[i] !== "{") return null;
      i++;
      for (;;) {
        space();
        if (text[i] !== '"') return null;
        const start = i;
        string();
        const key = JSON.parse(text.slice(start, i));
        space();
        if (text[i++] !== ":") return null;
        if (key === name) break;
        value();
        space();
        if (text[i++] !== ",") return null;
      }
    }
    return value();
  }

  /// The document of a viewer document's or a replay's JSON text. A seed
  /// is any u64, and JSON.parse rounds integers above 2^53 (a seed ending
  /// in 056173 would read 056000): the replay's seed is taken as the
  /// digits the text holds.
  function toDocument(text) {
    const json = JSON.parse(text);
    const exactSeed = (replay, path) => {
      const digits = rawMember(text, path);
      if (digits != null && /^[0-9]+$/.test(digits)) replay.seed = digits;
    };
    if (json && json.format === "ludus-viewer") {
      if (json.format_version !== 1) throw new Error(`viewer document version ${json.format_version} is newer than this page (1)`);
      exactSeed(json.replay, ["replay", "seed"]);
      return json;
    }
    if (json && json.format === "ludus-replay") {
      exactSeed(json, ["seed"]);
      return {
        format: "ludus-viewer", format_version: 1, replay: json, frames: [],
        notes: ["This is a replay file: it records answers, not states, so the board is not drawn. " +
          "`ludus replay html` makes a page that draws it."],
      };
    }
    throw new Error("not a Ludus replay or viewer document");
  }
  L.toDocument = toDocument;

  async function embedded() {
    const el = document.getElementById("ludus-data");
    if (!el || !el.textContent.trim()) return null;
    const enc = el.dataset.encoding;
    if (enc === "gzip-base64") return toDocument(await gunzip(decodeBase64(el.textContent)));
    return toDocument(el.textContent);
  }

  /// What the page calls seat `i`: the name its document gives (the bot's
  /// name and version as a ladder seated it), else the replay's.
  L.seatName = (i) => {
    const doc = L.player.doc;
    const given = doc && doc.seat_names && doc.seat_names[i];
    return given || (doc ? doc.replay.seats[i].name : `seat ${i}`);
  };

  // ---- The player.
  const BASE_TURNS_PER_SECOND = 4;
  const STEP_ANIMATION_MS = 220;
  const $ = (id) => document.getElementById(id);

  const P = (L.player = {
    doc: null,
    frames: [],
    last: 0,
    turn: 0,
    pos: 0, // the displayed position: turn - 1 < pos <= turn while moving into `turn`
    playing: false,
    speed: 1,
    seatShown: 0,
    renderer: fallback,
    rendererName: "fallback",
    series: [],
    drawCount: 0,
  });

  function framesOf(doc) {
    if (doc.frames && doc.frames.length) return doc.frames;
    // No states: scores from the replay's turn records.
    const r = doc.replay;
    const frames = [{ turn: 0, scores: r.seats.map(() => null), observations: [] }];
    for (const t of r.turns) frames.push({ turn: t.turn, scores: t.scores, observations: [] });
    return frames;
  }

  /// The observation of `seat` in frame i, parsed once.
  function view(i, seat = 0) {
    const f = P.frames[i];
    if (!f || !f.observations || f.observations[seat] == null) return null;
    f.parsed = f.parsed || [];
    if (f.parsed[seat] === undefined) {
      try { f.parsed[seat] = JSON.parse(f.observations[seat]); } catch (e) { f.parsed[seat] = null; }
    }
    return f.parsed[seat];
  }
  L.view = view;

  function load(doc) {
    P.doc = doc;
    P.frames = framesOf(doc);
    P.last = P.frames.length - 1;
    const r = doc.replay;
    document.body.classList.remove("empty");
    const game = L.renderers[r.game];
    const v0 = view(0);
    const notes = [...(doc.notes || [])];
    if (game && v0 && game.accepts(v0)) {
      P.renderer = game;
      P.rendererName = r.game;
    } else {
      P.renderer = fallback;
      P.rendererName = "fallback";
      if (game && v0) notes.push(`The ${r.game} renderer does not recognise these observations; showing them as they are.`);
      $("state-panel").open = true;
    }
    if (P.renderer.init) P.renderer.init(P, view);
    $("legend").textContent = P.renderer.legend || "";
    const names = r.seats.map((_, i) => L.seatName(i)).join(" vs ");
    document.title = `${r.game}: ${names} (seed ${r.seed})`;
    $("title").textContent = document.title;
    $("notes").hidden = notes.length === 0;
    $("notes").textContent = notes.join(" ");
    $("scrubber").max = String(P.last);
    $("last-turn").textContent = String(P.last);
    buildResult();
    buildFacts();
    buildScoreboard();
    buildLog();
    buildStateSeats();
    buildCharts();
    const t = turnFromHash();
    goTo(t == null ? 0 : t, false);
    resize();
  }

  // ---- Turn navigation.
  function clamp(t) {
    return Math.max(0, Math.min(P.last, Math.round(t)));
  }

  function goTo(t, animate) {
    t = clamp(t);
    const from = P.turn;
    P.turn = t;
    if (animate && t === from + 1) P.pos = t - 1; // glide into the next turn
    else P.pos = t;
    P.stepAnimation = animate && t === from + 1 ? performance.now() : null;
    updatePanels();
    if (!P.playing) writeHash();
    requestDraw();
  }
  L.goTo = (t) => goTo(t, false);

  function setPlaying(on) {
    if (on && P.turn >= P.last) goTo(0, false);
    P.playing = on && P.last > 0;
    $("btn-play").textContent = P.playing ? "❚❚" : "▶";
    $("btn-play").setAttribute("aria-label", P.playing ? "pause" : "play");
    P.lastTick = null;
    if (!P.playing) { P.pos = P.turn; writeHash(); }
    requestDraw();
  }

  function setSpeed(s) {
    const options = [...$("speed").options].map((o) => Number(o.value));
    if (!options.includes(s)) return;
    P.speed = s;
    $("speed").value = String(s);
  }

  function turnFromHash() {
    const m = /(?:^#|&)t=(\d+)/.exec(location.hash);
    return m ? clamp(Number(m[1])) : null;
  }

  let hashWritten = 0;
  function writeHash() {
    hashWritten = performance.now();
    const want = `#t=${P.turn}`;
    if (location.hash !== want) history.replaceState(null, "", want);
  }

  // ---- Drawing.
  let drawRequested = false;
  function requestDraw() {
    if (drawRequested) return;
    drawRequested = true;
    requestAnimationFrame(tick);
  }

  function tick(now) {
    drawRequested = false;
    if (P.playing) {
      if (P.lastTick != null) {
        P.pos += ((now - P.lastTick) / 1000) * BASE_TURNS_PER_SECOND * P.speed;
        const t = Math.min(P.last, Math.ceil(P.pos - 1e-9));
        if (t !== P.turn) {
          P.turn = t;
          updatePanels();
          if (now - hashWritten > 1000) writeHash();
        }
        if (P.pos >= P.last) { P.pos = P.last; setPlaying(false); }
      }
      P.lastTick = now;
    } else if (P.stepAnimation != null) {
      const k = (now - P.stepAnimation) / STEP_ANIMATION_MS;
      P.pos = k >= 1 ? P.turn : P.turn - 1 + k;
      if (k >= 1) P.stepAnimation = null;
    }
    draw();
    drawChartCursors();
    if (P.playing || P.stepAnimation != null) requestDraw();
  }

  const canvas = () => $("board");
  function resize() {
    const c = canvas();
    const dpr = window.devicePixelRatio || 1;
    const rect = c.getBoundingClientRect();
    const w = Math.max(1, Math.round(rect.width * dpr)), h = Math.max(1, Math.round(rect.height * dpr));
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    for (const ch of P.series) sizeChart(ch);
    requestDraw();
  }

  function draw() {
    if (!P.doc) return;
    const c = canvas();
    const ctx = c.getContext("2d");
    const dpr = window.devicePixelRatio || 1;
    const width = c.width / dpr, height = c.height / dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const to = P.turn;
    const moving = P.pos < to;
    const from = moving ? to - 1 : to;
    const t = moving ? L.ease(1 - (to - P.pos)) : 1;
    const scene = {
      width, height, t, turn: to,
      from: view(from), to: view(to),
      frame: P.frames[to], prevFrame: P.frames[from],
      record: P.doc.replay.turns[to - 1] || null,
      seats: P.doc.replay.seats, replay: P.doc.replay, dpr,
    };
    ctx.save();
    try {
      P.renderer.draw(ctx, scene);
    } catch (e) {
      // A renderer bug must not blank the page: say so, and fall back.
      console.warn(`the ${P.rendererName} renderer failed, falling back:`, e);
      P.renderer = fallback;
      P.rendererName = "fallback";
      ctx.restore();
      ctx.save();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, width, height);
      fallback.draw(ctx, scene);
    }
    ctx.restore();
    P.drawCount++;
  }

  // ---- Panels.
  function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c != null) e.append(c);
    return e;
  }

  function markCanvas(seat, size = 16) {
    const c = el("canvas", { class: "mark", "aria-hidden": "true" });
    const dpr = window.devicePixelRatio || 1;
    c.width = c.height = size * dpr;
    const ctx = c.getContext("2d");
    ctx.scale(dpr, dpr);
    L.mark(ctx, seat, size / 2, size / 2, size / 2 - 2, { lineWidth: 1 });
    return c;
  }

  function buildResult() {
    const r = P.doc.replay;
    let text;
    if (r.aborted) text = `Aborted, not scored: ${r.aborted}`;
    else if (r.outcome) {
      const winners = r.outcome.placements.map((p, i) => (p === 1 ? L.seatName(i) : null)).filter((x) => x);
      text = `${winners.length === 1 ? winners[0] + " wins" : "Tie: " + winners.join(", ")} — ${r.outcome.reason}`;
    } else text = "Unfinished";
    $("result").textContent = text;
  }

  function buildFacts() {
    const r = P.doc.replay;
    const dl = $("match-facts");
    dl.replaceChildren();
    const add = (k, v, mono) => dl.append(el("dt", { text: k }), el("dd", { class: mono ? "mono" : "", text: v }));
    add("game", `${r.game}, rules version ${r.rules_version}`);
    add("seed", String(r.seed));
    add("match id", r.match_id, true);
    add("turns", String(r.turns.length));
    r.seats.forEach((s, i) => add(`seat ${i}`, `${L.seatName(i)}  sha256 ${s.sha256}`, true));
    if (r.outcome) add("final scores", r.outcome.scores.map(L.fmt).join(", ") + `  (places ${r.outcome.placements.join(", ")})`);
    add("Ludus", `${r.ludus_version}, wasmtime ${r.wasmtime_version}`);
    add("limits", JSON.stringify(r.limits), true);
    add("config", JSON.stringify(r.config), true);
  }

  function buildScoreboard() {
    const body = $("scoreboard").tBodies[0];
    body.replaceChildren();
    const r = P.doc.replay;
    r.seats.forEach((s, i) => {
      const copy = el("button", { title: `Copy the state of this turn as seat ${i} saw it (JSON)`, onclick: () => copyView(i) }, "copy view");
      if (!P.frames[0].observations || P.frames[0].observations[i] == null) copy.disabled = true;
      body.append(el("tr", { "data-seat": String(i) },
        el("td", {}, markCanvas(i)),
        el("td", { class: "l name", title: `sha256 ${s.sha256}` }, `${i}: ${L.seatName(i)}`),
        el("td", { class: "score", "data-role": "score" }),
        el("td", { "data-role": "place" }),
        el("td", { class: "l status", "data-role": "status" }),
        el("td", {}, copy)));
    });
  }

  function seatStatus(rec) {
    if (!rec) return [];
    const out = [];
    if (rec.out) out.push(["bad", "out"]);
    if (rec.fault) out.push(["bad", `fault: ${rec.fault.kind}`]);
    if (rec.refused && rec.refused.length) out.push(["bad", `${rec.refused.length} refused`]);
    if (rec.fuel) out.push(["", `${(rec.fuel / 1e6).toFixed(1)}M fuel`]);
    return out;
  }

  function updatePanels() {
    const t = P.turn;
    const r = P.doc.replay;
    $("turn").textContent = String(t);
    $("scrubber").value = String(t);
    const frame = P.frames[t];
    const rec = r.turns[t - 1];
    const final = t === P.last && r.outcome;
    for (const row of $("scoreboard").tBodies[0].rows) {
      const i = Number(row.dataset.seat);
      const v = frame.scores ? frame.scores[i] : null;
      const cell = row.querySelector("[data-role=score]");
      cell.textContent = L.fmt(v);
      cell.dataset.value = v == null ? "" : String(v);
      row.querySelector("[data-role=place]").textContent = final ? String(r.outcome.placements[i]) : "";
      const st = row.querySelector("[data-role=status]");
      st.replaceChildren(...seatStatus(rec && rec.seats[i]).map(([c, s]) => el("span", { class: c, text: s + " " })));
    }
    highlightLog();
    showState();
  }

  // Turn log: one table per seat, a row per turn.
  function buildLog() {
    const tabs = $("log-tabs");
    tabs.replaceChildren();
    P.doc.replay.seats.forEach((s, i) => {
      tabs.append(el("button", { role: "tab", "aria-selected": String(i === P.seatShown), "data-seat": String(i),
        onclick: () => { P.seatShown = i; buildLog(); highlightLog(); } }, markCanvas(i, 12), ` ${L.seatName(i)}`));
    });
    const seat = P.seatShown;
    const tbody = el("tbody");
    for (const t of P.doc.replay.turns) {
      const s = t.seats[seat] || {};
      // Not its move in a game played in turn order: nothing to show.
      if (s.waiting) continue;
      const what = el("td", { class: "l" });
      if (s.out) what.append(el("div", { class: "fault", text: "out of the match, not called" }));
      if (s.answer != null) {
        const a = s.answer.length > 160 ? s.answer.slice(0, 160) + "…" : s.answer;
        what.append(el("div", { class: "answer mono", title: s.answer.slice(0, 4000), text: a }));
      }
      if (s.fault) what.append(el("div", { class: "fault", text: `fault ${s.fault.kind}: ${s.fault.message}` }));
      for (const f of s.refused || []) what.append(el("div", { class: "refused", text: `refused ${f.kind}: ${f.reason}` }));
      if (s.log) what.append(el("div", { class: "botlog mono", text: s.log.length > 600 ? s.log.slice(0, 600) + "…" : s.log }));
      if (s.log_dropped) what.append(el("div", { class: "botlog", text: `(${s.log_dropped} log bytes dropped over the cap)` }));
      tbody.append(el("tr", { "data-turn": String(t.turn), onclick: () => goTo(t.turn, false) },
        el("td", { text: String(t.turn) }), el("td", { text: s.fuel ? s.fuel.toLocaleString("en") : "" }), what));
    }
    const table = el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "turn" }), el("th", { text: "fuel" }),
      el("th", { class: "l", text: "answer, refusals, faults, log" }))), tbody);
    $("log-body").replaceChildren(table);
  }

  function highlightLog() {
    const body = $("log-body");
    const old = body.querySelector("tr.current");
    if (old) old.classList.remove("current");
    const row = body.querySelector(`tr[data-turn="${P.turn}"]`);
    if (!row) return;
    row.classList.add("current");
    // Scroll the log itself, never the page.
    const top = row.offsetTop, bottom = top + row.offsetHeight;
    if (top < body.scrollTop + 24 || bottom > body.scrollTop + body.clientHeight) body.scrollTop = top - body.clientHeight / 3;
  }

  function buildStateSeats() {
    const sel = $("state-seat");
    sel.replaceChildren(...P.doc.replay.seats.map((s, i) => el("option", { value: String(i), text: `${i} (${L.seatName(i)})` })));
    sel.onchange = showState;
  }

  function showState() {
    const panel = $("state-panel");
    if (!panel.open) return;
    const seat = Number($("state-seat").value || 0);
    const v = view(P.turn, seat);
    $("state-json").textContent = v == null ? "(no state: this document holds no observations)" : JSON.stringify(v, null, 1);
  }

  async function copyView(seat) {
    const f = P.frames[P.turn];
    const text = f.observations && f.observations[seat];
    if (text == null) return;
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch (e) {
      // Clipboard API refused (e.g. no permission on file://): the old way.
      // Styled through the CSSOM: a style attribute is not allowed by the
      // server's content security policy.
      const ta = el("textarea");
      ta.style.position = "fixed";
      ta.style.opacity = "0";
      ta.value = text;
      document.body.append(ta);
      ta.select();
      try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
      ta.remove();
    }
    L.copied = text;
    $("copy-status").textContent = ok
      ? `Copied seat ${seat}'s view after turn ${P.turn} (its input for turn ${P.turn + 1}), ${text.length} bytes.`
      : `Could not copy; the state is in the panel below.`;
    if (!ok) { $("state-seat").value = String(seat); $("state-panel").open = true; showState(); }
  }

  // ---- Charts: each series over the match, every seat, a cursor at the turn.
  function buildCharts() {
    const r = P.doc.replay;
    const n = r.seats.length;
    const series = [{ name: "score", values: P.frames.map((f) => f.scores || []) }];
    if (P.renderer.series && P.frames[0].observations && P.frames[0].observations.length) {
      const extra = {};
      P.frames.forEach((f, i) => {
        const v = view(i);
        const s = v ? P.renderer.series(v, n, i) : null;
        for (const [k, vals] of Object.entries(s || {})) (extra[k] = extra[k] || [])[i] = vals;
      });
      for (const [k, values] of Object.entries(extra)) series.push({ name: k, values });
    }
    series.push({ name: "fuel per turn (millions)", values: [[], ...r.turns.map((t) => t.seats.map((s) => (s.fuel || 0) / 1e6))] });
    const box = $("charts");
    box.replaceChildren();
    P.series = series.map((s) => {
      const c = el("canvas", { "aria-label": `${s.name} over the match; click to go to a turn` });
      const chart = { ...s, canvas: c, n };
      const jump = (ev) => {
        const rect = c.getBoundingClientRect();
        goTo(((ev.clientX - rect.left - 4) / Math.max(1, rect.width - 8)) * P.last, false);
      };
      c.addEventListener("pointerdown", (ev) => { c.setPointerCapture(ev.pointerId); jump(ev); });
      c.addEventListener("pointermove", (ev) => { if (ev.buttons) jump(ev); });
      box.append(el("div", { class: "chart" }, el("h3", { text: s.name }), c));
      return chart;
    });
    for (const ch of P.series) sizeChart(ch);
  }

  function sizeChart(ch) {
    const dpr = window.devicePixelRatio || 1;
    const rect = ch.canvas.getBoundingClientRect();
    ch.w = Math.max(1, rect.width);
    ch.h = Math.max(1, rect.height);
    ch.canvas.width = Math.round(ch.w * dpr);
    ch.canvas.height = Math.round(ch.h * dpr);
    // The lines are drawn once per size; the cursor goes on top each frame.
    const img = document.createElement("canvas");
    img.width = ch.canvas.width;
    img.height = ch.canvas.height;
    const ctx = img.getContext("2d");
    ctx.scale(dpr, dpr);
    let lo = Infinity, hi = -Infinity;
    for (const row of ch.values) for (const v of row || []) if (v != null && Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (!(hi >= lo)) { lo = 0; hi = 1; }
    if (hi === lo) hi = lo + 1;
    const x = (i) => 4 + ((ch.w - 8) * i) / Math.max(1, P.last);
    const y = (v) => ch.h - 4 - ((ch.h - 8) * (v - lo)) / (hi - lo);
    for (let s = 0; s < ch.n; s++) {
      ctx.beginPath();
      let pen = false;
      ch.values.forEach((row, i) => {
        const v = row ? row[s] : null;
        if (v == null || !Number.isFinite(v)) { pen = false; return; }
        if (pen) ctx.lineTo(x(i), y(v)); else ctx.moveTo(x(i), y(v));
        pen = true;
      });
      ctx.setLineDash(L.dashes[s % L.dashes.length]);
      ctx.strokeStyle = L.color(s);
      ctx.lineWidth = 1.6;
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.fillStyle = "#888";
    ctx.font = "10px system-ui, sans-serif";
    ctx.textAlign = "right";
    ctx.textBaseline = "top";
    ctx.fillText(L.fmt(Math.round(hi * 100) / 100), ch.w - 2, 1);
    ch.image = img;
  }

  function drawChartCursors() {
    for (const ch of P.series) {
      if (!ch.image) continue;
      const ctx = ch.canvas.getContext("2d");
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, ch.canvas.width, ch.canvas.height);
      ctx.drawImage(ch.image, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const x = 4 + ((ch.w - 8) * P.pos) / Math.max(1, P.last);
      ctx.strokeStyle = "rgba(0,0,0,0.55)";
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, ch.h);
      ctx.stroke();
    }
  }

  // ---- Input.
  function onKey(ev) {
    if (!P.doc || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    const typing = target && (target.tagName === "INPUT" && target.type !== "range" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
    if (typing) return;
    const slider = target && target.id === "scrubber";
    const big = ev.shiftKey ? 10 : 1;
    switch (ev.key) {
      case " ": case "k": case "K": setPlaying(!P.playing); break;
      case "ArrowRight": case "l": case "L":
        if (slider && !ev.shiftKey) return; // the slider steps itself
        setPlaying(false); goTo(P.turn + big, big === 1); break;
      case "ArrowLeft": case "j": case "J":
        if (slider && !ev.shiftKey) return;
        setPlaying(false); goTo(P.turn - big, false); break;
      case "Home": setPlaying(false); goTo(0, false); break;
      case "End": setPlaying(false); goTo(P.last, false); break;
      case "+": case "=": setSpeed(P.speed * 2); break;
      case "-": case "_": setSpeed(P.speed / 2); break;
      default: return;
    }
    ev.preventDefault();
  }

  function wireControls() {
    $("btn-play").onclick = () => setPlaying(!P.playing);
    $("btn-home").onclick = () => { setPlaying(false); goTo(0, false); };
    $("btn-end").onclick = () => { setPlaying(false); goTo(P.last, false); };
    $("btn-back").onclick = (ev) => { setPlaying(false); goTo(P.turn - (ev.shiftKey ? 10 : 1), false); };
    $("btn-fwd").onclick = (ev) => { setPlaying(false); goTo(P.turn + (ev.shiftKey ? 10 : 1), !ev.shiftKey); };
    $("scrubber").addEventListener("input", () => { setPlaying(false); goTo(Number($("scrubber").value), false); });
    $("speed").onchange = () => setSpeed(Number($("speed").value));
    $("state-panel").addEventListener("toggle", showState);
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", () => {
      const t = turnFromHash();
      if (t != null && t !== P.turn) { setPlaying(false); goTo(t, false); }
    });
    if (window.ResizeObserver) new ResizeObserver(resize).observe($("canvas-wrap"));
    window.addEventListener("resize", resize);
    // A dropped (or opened) file replaces the match on the page.
    const open = async (file) => {
      try {
        const doc = await parseFile(new Uint8Array(await file.arrayBuffer()));
        setPlaying(false);
        P.turn = 0;
        history.replaceState(null, "", "#t=0");
        load(doc);
      } catch (e) {
        $("notes").hidden = false;
        $("notes").textContent = `${file.name} cannot be shown: ${e.message}`;
      }
    };
    document.addEventListener("dragover", (ev) => { ev.preventDefault(); document.body.classList.add("dragging"); });
    document.addEventListener("dragleave", (ev) => { if (!ev.relatedTarget) document.body.classList.remove("dragging"); });
    document.addEventListener("drop", (ev) => {
      ev.preventDefault();
      document.body.classList.remove("dragging");
      const file = ev.dataTransfer && ev.dataTransfer.files[0];
      if (file) open(file);
    });
    $("open-file").addEventListener("change", () => { const f = $("open-file").files[0]; if (f) open(f); });
  }

  L.openBytes = async (bytes) => { const doc = await parseFile(bytes); setPlaying(false); load(doc); };
  L.setPlaying = setPlaying;
  L.setSpeed = setSpeed;

  L.boot = async function () {
    wireControls();
    try {
      const doc = await embedded();
      if (doc) load(doc);
      else document.body.classList.add("empty");
    } catch (e) {
      $("notes").hidden = false;
      $("notes").textContent = `The embedded match cannot be read: ${e.message}`;
    }
    L.ready = true;
  };
})();
