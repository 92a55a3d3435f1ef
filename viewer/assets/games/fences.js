// Fences (docs/games/fences.md). Draws seat 0's observation: the grid of
// points, each player's enclosed regions filled in its colour and pattern,
// its edges (protected ones thick with a light centre line), its nodes in
// its shape, and both scores. A new edge grows from its node; a broken edge
// fades out.
"use strict";
Ludus.register({
  game: "fences",
  legend: "filled: enclosed regions · lines: edges (thick, light centre: protected) · marks: nodes · dashed: broken",

  accepts: (v) =>
    v && Array.isArray(v.edges) && Array.isArray(v.regions) && v.self && v.opponent && Number.isFinite(v.width),

  series(v, seats) {
    const area = new Array(seats).fill(0);
    const edges = new Array(seats).fill(0);
    for (const p of [v.self, v.opponent]) if (p && p.id < seats) area[p.id] = p.area;
    for (const e of v.edges) if (e.owner < seats) edges[e.owner]++;
    return { "area enclosed": area, edges };
  },

  draw(ctx, s) {
    const L = Ludus;
    const to = s.to, from = s.from || to, t = s.t;
    const g = L.grid.layout(s, Math.max(1, to.width - 1), Math.max(1, to.height - 1));
    const X = (x) => g.X(x), Y = (y) => g.Y(y);

    // Regions: the state before the move until half-way, then after.
    const shown = t < 0.5 ? from : to;
    for (const r of shown.regions) {
      if (!Array.isArray(r.outline) || r.outline.length < 3) continue;
      ctx.beginPath();
      r.outline.forEach(([x, y], k) => (k ? ctx.lineTo : ctx.moveTo).call(ctx, X(x), Y(y)));
      ctx.closePath();
      ctx.fillStyle = L.pattern(ctx, r.owner, 0.45);
      ctx.fill();
    }

    // The points.
    ctx.fillStyle = "#9a9a9a";
    const dot = Math.max(1, Math.min(3, g.cell * 0.06));
    for (let y = 0; y < to.height; y++)
      for (let x = 0; x < to.width; x++) {
        ctx.beginPath();
        ctx.arc(X(x), Y(y), dot, 0, 2 * Math.PI);
        ctx.fill();
      }

    // Edges: new ones grow from their node, broken ones fade.
    const before = new Set(from.edges.map((e) => e.id));
    const after = new Set(to.edges.map((e) => e.id));
    const width = Math.max(2, g.cell * 0.09);
    const line = (e, grow, alpha, dashed) => {
      const x2 = L.lerp(e.a[0], e.b[0], grow), y2 = L.lerp(e.a[1], e.b[1], grow);
      ctx.globalAlpha = alpha;
      ctx.setLineDash(dashed ? [6, 4] : []);
      ctx.lineCap = "round";
      ctx.beginPath();
      ctx.moveTo(X(e.a[0]), Y(e.a[1]));
      ctx.lineTo(X(x2), Y(y2));
      ctx.strokeStyle = L.color(e.owner);
      ctx.lineWidth = e.protected ? width * 2.2 : width;
      ctx.stroke();
      if (e.protected) {
        ctx.strokeStyle = "rgba(255,255,255,0.85)";
        ctx.lineWidth = Math.max(1, width * 0.6);
        ctx.stroke();
      }
      ctx.setLineDash([]);
      ctx.globalAlpha = 1;
    };
    for (const e of from.edges) if (!after.has(e.id) && from !== to) line(e, 1, 1 - t, true);
    for (const e of to.edges) line(e, before.has(e.id) || from === to ? 1 : Math.min(1, t * 1.5), 1, false);

    // Nodes in their owner's shape.
    for (const p of [to.self, to.opponent]) {
      for (const [x, y] of p.nodes || []) L.mark(ctx, p.id, X(x), Y(y), Math.max(3, g.cell * 0.13), { lineWidth: 1 });
    }

    // Scores and whose move it is.
    const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
    const players = [to.self, to.opponent].sort((a, b) => a.id - b.id);
    players.forEach((p, i) => {
      L.text(ctx, `${p.color}: ${fmt(p.score)} points, ${fmt(p.area)} enclosed`, s.width - 8, 14 + 15 * i, 12, L.color(p.id), "right");
    });
    const mover = players.find((p) => p.id === to.to_move);
    const state = to.moves_left > 0 && mover ? ` · ${mover.color} to move` : "";
    L.text(ctx, `move ${to.turn}/${to.turns} · turn ${Math.min(to.round, to.rounds)}/${to.rounds}${state}`, 8, 12, 12, "#555", "left");
  },
});
