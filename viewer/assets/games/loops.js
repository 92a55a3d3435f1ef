// Loops (grid game 2): land, walls, 2x2 pads, and each bot's open trail.
// Observation: owner[y][x], walls, pads, bots[] with id, position, trail, returning.
"use strict";
Ludus.register(Ludus.grid.renderer({
  game: "loops",
  legend: "pattern and colour: land · dark: walls · outlined: pads · line: an open trail",
  series(v, seats) {
    const score = new Array(seats).fill(0);
    v.bots.forEach((b, i) => { if (b && i < seats && Number.isFinite(b.score)) score[i] = b.score; });
    return { "points (bots' own count)": score };
  },
  extra(ctx, s, g) {
    const L = Ludus, G = Ludus.grid, v = s.to;
    ctx.fillStyle = "#3a3a3a";
    for (const [x, y] of G.cells(v.walls)) ctx.fillRect(g.X(x), g.Y(y), g.cell, g.cell);
    const pads = Array.isArray(v.pads) ? v.pads : [];
    pads.forEach((pad, i) => {
      ctx.lineWidth = 2;
      ctx.strokeStyle = L.color(i);
      for (const [x, y] of G.cells(pad)) ctx.strokeRect(g.X(x) + 2, g.Y(y) + 2, g.cell - 4, g.cell - 4);
    });
    v.bots.forEach((b, i) => {
      const trail = G.cells(b && b.trail);
      if (!trail.length) return;
      ctx.beginPath();
      trail.forEach(([x, y], k) => (k ? ctx.lineTo : ctx.moveTo).call(ctx, g.X(x + 0.5), g.Y(y + 0.5)));
      const pos = G.xy(b.position);
      if (pos) ctx.lineTo(g.X(pos[0] + 0.5), g.Y(pos[1] + 0.5));
      ctx.setLineDash(L.dashes[i % L.dashes.length]);
      ctx.lineWidth = Math.max(2, g.cell * 0.15);
      ctx.strokeStyle = L.color(i);
      ctx.globalAlpha = b.returning ? 0.35 : 0.9;
      ctx.stroke();
      ctx.globalAlpha = 1;
      ctx.setLineDash([]);
    });
  },
}));
