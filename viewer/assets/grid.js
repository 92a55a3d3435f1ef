// Helpers for board games: Ludus.grid for the grid games (claim, loops,
// shields: an `owner[y][x]` board, -1 neutral, else the owner's id, and `bots`
// with `position: [x, y]`), whose renderer Ludus.grid.renderer(options) makes;
// Ludus.torus for Kaggle's wrap-around boards (kore, halite).
"use strict";
(function () {
  const L = window.Ludus;
  const G = (L.grid = {});

  /// [x, y] from [x, y] or {x, y}.
  G.xy = (p) => (Array.isArray(p) ? [p[0], p[1]] : p && typeof p === "object" ? [p.x, p.y] : null);

  G.size = function (v) {
    const h = v.height || (Array.isArray(v.owner) ? v.owner.length : 0);
    const w = v.width || (Array.isArray(v.owner) && v.owner[0] ? v.owner[0].length : 0);
    return [w, h];
  };

  G.accepts = (v) => v && Array.isArray(v.owner) && Array.isArray(v.owner[0]) && Array.isArray(v.bots);

  /// Owner ids are the bots' ids; the seat is the bot's place in `bots`.
  G.seatOf = function (v, id) {
    if (id == null || id < 0) return null;
    const i = v.bots.findIndex((b) => b && b.id === id);
    return i >= 0 ? i : id;
  };

  G.layout = function (s, w, h) {
    const margin = 24;
    const cell = Math.max(2, Math.min((s.width - 2 * margin) / w, (s.height - 2 * margin) / h));
    const ox = (s.width - cell * w) / 2, oy = (s.height - cell * h) / 2;
    return { cell, ox, oy, X: (x) => ox + x * cell, Y: (y) => oy + y * cell };
  };

  G.drawOwners = function (ctx, v, g) {
    const [w, h] = G.size(v);
    for (let y = 0; y < h; y++) {
      const row = v.owner[y] || [];
      for (let x = 0; x < w; x++) {
        const seat = G.seatOf(v, row[x]);
        ctx.fillStyle = seat == null ? (row[x] == null ? "#cfcfcf" : "#f1f1f1") : L.pattern(ctx, seat, 0.7);
        ctx.fillRect(g.X(x), g.Y(y), g.cell, g.cell);
      }
    }
    ctx.strokeStyle = "rgba(0,0,0,0.12)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = 0; x <= w; x++) { ctx.moveTo(g.X(x), g.Y(0)); ctx.lineTo(g.X(x), g.Y(h)); }
    for (let y = 0; y <= h; y++) { ctx.moveTo(g.X(0), g.Y(y)); ctx.lineTo(g.X(w), g.Y(y)); }
    ctx.stroke();
  };

  /// Cells from a list of [x, y] (or {x, y}), or from a [y][x] grid of truthy values.
  G.cells = function (list) {
    if (!Array.isArray(list)) return [];
    if (list.length && Array.isArray(list[0]) && list[0].length > 2) {
      const out = [];
      list.forEach((row, y) => row.forEach((c, x) => { if (c) out.push([x, y]); }));
      return out;
    }
    return list.map(G.xy).filter((p) => p && Number.isFinite(p[0]) && Number.isFinite(p[1]));
  };

  G.drawBots = function (ctx, s, g) {
    const to = s.to, from = s.from || to;
    to.bots.forEach((b, i) => {
      if (!b) return;
      const p1 = G.xy(b.position);
      if (!p1) return;
      const b0 = from.bots[i];
      const p0 = (b0 && G.xy(b0.position)) || p1;
      const x = L.lerp(p0[0], p1[0], s.t), y = L.lerp(p0[1], p1[1], s.t);
      const alive = b.alive !== false;
      L.mark(ctx, i, g.X(x + 0.5), g.Y(y + 0.5), g.cell * 0.32, { alpha: alive ? 1 : 0.3, lineWidth: 2 });
      if (to.priority_seat === i) {
        ctx.beginPath();
        L.shapePath(ctx, "diamond", g.X(x + 0.85), g.Y(y + 0.15), g.cell * 0.1);
        ctx.fillStyle = "#fff";
        ctx.fill();
        ctx.strokeStyle = "#333";
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    });
  };

  /// A renderer for a grid game; `extra(ctx, scene, layout)` draws what is
  /// particular to the game between the land and the bots.
  G.renderer = function ({ game, legend, extra, series }) {
    return {
      game,
      legend,
      accepts: G.accepts,
      series(v, seats) {
        const cells = new Array(seats).fill(0);
        for (const row of v.owner) for (const id of row || []) { const s = G.seatOf(v, id); if (s != null && s < seats) cells[s]++; }
        return Object.assign({ cells }, series ? series(v, seats) : {});
      },
      draw(ctx, s) {
        const [w, h] = G.size(s.to);
        const g = G.layout(s, w, h);
        G.drawOwners(ctx, s.t < 0.5 && s.from ? s.from : s.to, g);
        if (extra) extra(ctx, s, g);
        G.drawBots(ctx, s, g);
        L.text(ctx, `turn ${s.turn}`, 8, 12, 12, "#555", "left");
      },
    };
  };

  // ---- Kaggle boards: `{"observation": {...}, "configuration": {...}}` or
  // the observation alone; cells are indices into a size × size list, row 0
  // at the top (north), and `players[i]` is seat i.
  const T = (L.torus = {});
  T.obs = (v) => (v && v.observation && typeof v.observation === "object" ? v.observation : v);
  T.config = (v) => (v && v.configuration && typeof v.configuration === "object" ? v.configuration : {});
  T.accepts = (key) => (v) => {
    const o = T.obs(v);
    return !!o && Array.isArray(o[key]) && Array.isArray(o.players);
  };
  T.size = (v, key) => T.config(v).size || Math.round(Math.sqrt(T.obs(v)[key].length)) || 1;
  T.xy = (index, size) => [index % size, Math.floor(index / size)];
  /// From a to b the short way round the torus, at t.
  T.lerp = function (a, b, t, size) {
    let d = b - a;
    if (d > size / 2) d -= size;
    if (d < -size / 2) d += size;
    return (((a + d * t) % size) + size) % size;
  };
  T.layout = G.layout;
  /// Resources (kore, halite) as dots sized by amount.
  T.drawResource = function (ctx, list, size, g, color) {
    let max = 0;
    for (const v of list) if (v > max) max = v;
    ctx.fillStyle = "#f4f4f0";
    ctx.fillRect(g.X(0), g.Y(0), g.cell * size, g.cell * size);
    ctx.fillStyle = color;
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      if (!(v > 0)) continue;
      const [x, y] = T.xy(i, size);
      ctx.beginPath();
      ctx.arc(g.X(x + 0.5), g.Y(y + 0.5), (g.cell * 0.45 * Math.sqrt(v)) / Math.sqrt(max || 1), 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.strokeStyle = "rgba(0,0,0,0.08)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let k = 0; k <= size; k++) {
      ctx.moveTo(g.X(k), g.Y(0)); ctx.lineTo(g.X(k), g.Y(size));
      ctx.moveTo(g.X(0), g.Y(k)); ctx.lineTo(g.X(size), g.Y(k));
    }
    ctx.stroke();
  };
  /// Units (ships, fleets) by id: where each was and is, for moving them.
  T.units = function (from, to, pick) {
    const before = new Map();
    (T.obs(from).players || []).forEach((p, seat) => {
      for (const [id, u] of Object.entries(pick(p) || {})) before.set(id, u);
    });
    const out = [];
    (T.obs(to).players || []).forEach((p, seat) => {
      for (const [id, u] of Object.entries(pick(p) || {})) out.push({ id, seat, now: u, before: before.get(id) });
    });
    return out;
  };
})();
