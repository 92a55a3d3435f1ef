// Kore 2022 (Kaggle's observation): kore on the board, shipyards (a square
// in the owner's colour with its ships) and fleets (the owner's mark with an
// arrow for the direction, and the ship count), moving the short way round.
// players[i] = [kore, {shipyard id: [cell, ships, turns controlled]},
//               {fleet id: [cell, kore, ships, direction 0..3 (N E S W), plan]}]
"use strict";
Ludus.register({
  game: "kore",
  legend: "dots: kore · squares: shipyards · marks: fleets (arrow: heading)",
  accepts: Ludus.torus.accepts("kore"),

  series(v, seats) {
    const o = Ludus.torus.obs(v);
    const kore = new Array(seats).fill(0), ships = new Array(seats).fill(0);
    o.players.slice(0, seats).forEach((p, i) => {
      kore[i] = Number(p[0]) || 0;
      for (const y of Object.values(p[1] || {})) ships[i] += Number(y[1]) || 0;
      for (const f of Object.values(p[2] || {})) ships[i] += Number(f[2]) || 0;
    });
    return { "kore banked": kore, ships };
  },

  draw(ctx, s) {
    const L = Ludus, T = Ludus.torus;
    const o = T.obs(s.to);
    const size = T.size(s.to, "kore");
    const g = T.layout(s, size, size);
    T.drawResource(ctx, o.kore, size, g, "#b8a46a");
    o.players.forEach((p, seat) => {
      for (const [id, y] of Object.entries(p[1] || {})) {
        const [x, yy] = T.xy(y[0], size);
        ctx.fillStyle = L.pattern(ctx, seat, 0.9);
        ctx.fillRect(g.X(x) + 1, g.Y(yy) + 1, g.cell - 2, g.cell - 2);
        ctx.lineWidth = 2;
        ctx.strokeStyle = L.color(seat);
        ctx.strokeRect(g.X(x) + 1, g.Y(yy) + 1, g.cell - 2, g.cell - 2);
        L.text(ctx, String(y[1]), g.X(x + 0.5), g.Y(yy + 0.5), Math.max(8, g.cell * 0.4));
      }
    });
    const from = s.from || s.to;
    for (const u of T.units(from, s.to, (p) => p[2])) {
      const [x1, y1] = T.xy(u.now[0], size);
      const [x0, y0] = u.before ? T.xy(u.before[0], size) : [x1, y1];
      const x = T.lerp(x0, x1, s.t, size), y = T.lerp(y0, y1, s.t, size);
      const cx = g.X(x + 0.5), cy = g.Y(y + 0.5), r = g.cell * 0.3;
      L.mark(ctx, u.seat, cx, cy, r, { lineWidth: 1 });
      const dir = [[0, -1], [1, 0], [0, 1], [-1, 0]][u.now[3]];
      if (dir) {
        ctx.beginPath();
        ctx.moveTo(cx + dir[0] * r * 0.4, cy + dir[1] * r * 0.4);
        ctx.lineTo(cx + dir[0] * r * 1.6, cy + dir[1] * r * 1.6);
        ctx.strokeStyle = "#222";
        ctx.lineWidth = 1.5;
        ctx.stroke();
      }
      L.text(ctx, String(u.now[2]), cx + r, cy - r, Math.max(8, g.cell * 0.32), L.color(u.seat), "left");
    }
    L.text(ctx, `step ${o.step != null ? o.step : s.turn}`, 8, 12, 12, "#555", "left");
  },
});
