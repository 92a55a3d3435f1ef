// Halite IV (Kaggle's observation): halite on the board, shipyards (a square
// in the owner's colour) and ships (the owner's mark, sized by cargo),
// moving the short way round the torus.
// players[i] = [halite, {shipyard id: cell}, {ship id: [cell, cargo]}]
"use strict";
Ludus.register({
  game: "halite",
  legend: "dots: halite · squares: shipyards · marks: ships (size: cargo)",
  accepts: Ludus.torus.accepts("halite"),

  series(v, seats) {
    const o = Ludus.torus.obs(v);
    const halite = new Array(seats).fill(0), ships = new Array(seats).fill(0);
    o.players.slice(0, seats).forEach((p, i) => {
      halite[i] = Number(p[0]) || 0;
      ships[i] = Object.keys(p[2] || {}).length;
    });
    return { "halite banked": halite, ships };
  },

  draw(ctx, s) {
    const L = Ludus, T = Ludus.torus;
    const o = T.obs(s.to);
    const size = T.size(s.to, "halite");
    const g = T.layout(s, size, size);
    T.drawResource(ctx, o.halite, size, g, "#7fb8a0");
    o.players.forEach((p, seat) => {
      for (const cell of Object.values(p[1] || {})) {
        const [x, y] = T.xy(cell, size);
        ctx.fillStyle = L.pattern(ctx, seat, 0.9);
        ctx.fillRect(g.X(x) + 1, g.Y(y) + 1, g.cell - 2, g.cell - 2);
        ctx.lineWidth = 2;
        ctx.strokeStyle = L.color(seat);
        ctx.strokeRect(g.X(x) + 1, g.Y(y) + 1, g.cell - 2, g.cell - 2);
      }
    });
    const from = s.from || s.to;
    let maxCargo = 1;
    for (const p of o.players) for (const u of Object.values(p[2] || {})) maxCargo = Math.max(maxCargo, Number(u[1]) || 0);
    for (const u of T.units(from, s.to, (p) => p[2])) {
      const [x1, y1] = T.xy(u.now[0], size);
      const [x0, y0] = u.before ? T.xy(u.before[0], size) : [x1, y1];
      const x = T.lerp(x0, x1, s.t, size), y = T.lerp(y0, y1, s.t, size);
      const r = g.cell * (0.2 + 0.15 * Math.sqrt((Number(u.now[1]) || 0) / maxCargo));
      L.mark(ctx, u.seat, g.X(x + 0.5), g.Y(y + 0.5), r, { lineWidth: 1 });
    }
    L.text(ctx, `step ${o.step != null ? o.step : s.turn}`, 8, 12, 12, "#555", "left");
  },
});
