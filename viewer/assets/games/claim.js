// Claim (grid game 1): land held round each home, captures in progress.
// Observation: owner[y][x], bots[] with id, position, home, capture_target, alive.
"use strict";
Ludus.register(Ludus.grid.renderer({
  game: "claim",
  legend: "pattern and colour: owner · thick outline: a home · dashed: a capture in progress",
  extra(ctx, s, g) {
    const L = Ludus, G = Ludus.grid;
    s.to.bots.forEach((b, i) => {
      if (!b) return;
      const home = G.xy(b.home);
      if (home) {
        ctx.lineWidth = 3;
        ctx.strokeStyle = L.color(i);
        ctx.strokeRect(g.X(home[0]) + 1.5, g.Y(home[1]) + 1.5, g.cell - 3, g.cell - 3);
      }
      const target = G.xy(b.capture_target);
      if (target) {
        ctx.setLineDash([4, 3]);
        ctx.lineWidth = 2;
        ctx.strokeStyle = L.color(i);
        ctx.strokeRect(g.X(target[0]) + 3, g.Y(target[1]) + 3, g.cell - 6, g.cell - 6);
        ctx.setLineDash([]);
      }
    });
  },
}));
