// Shields (grid game 5): valued cells, upgraded cells, shields and frozen bots.
// Observation: owner[y][x], values (or value) [y][x], levels (or level) [y][x],
// bots[] with id, position, home, shielded, frozen.
"use strict";
Ludus.register(Ludus.grid.renderer({
  game: "shields",
  legend: "number: a cell's value · inner line: upgraded · dashed ring: shielded · faded: frozen",
  extra(ctx, s, g) {
    const L = Ludus, G = Ludus.grid, v = s.to;
    const values = v.values || v.value;
    const levels = v.levels || v.level;
    const [w, h] = G.size(v);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const val = values && values[y] ? values[y][x] : null;
        if (val != null) L.text(ctx, String(val), g.X(x) + g.cell * 0.18, g.Y(y) + g.cell * 0.2, Math.max(8, g.cell * 0.18), "#333");
        const lvl = levels && levels[y] ? levels[y][x] : null;
        if (lvl != null && lvl > 1) {
          ctx.lineWidth = 2;
          ctx.strokeStyle = "#fff";
          ctx.strokeRect(g.X(x) + g.cell * 0.15, g.Y(y) + g.cell * 0.15, g.cell * 0.7, g.cell * 0.7);
        }
      }
    }
    v.bots.forEach((b, i) => {
      if (!b) return;
      const home = G.xy(b.home);
      if (home) {
        ctx.lineWidth = 3;
        ctx.strokeStyle = L.color(i);
        ctx.strokeRect(g.X(home[0]) + 1.5, g.Y(home[1]) + 1.5, g.cell - 3, g.cell - 3);
      }
      const pos = G.xy(b.position);
      if (pos && (b.shielded || b.shield || b.frozen)) {
        ctx.beginPath();
        ctx.arc(g.X(pos[0] + 0.5), g.Y(pos[1] + 0.5), g.cell * 0.45, 0, 2 * Math.PI);
        ctx.setLineDash([4, 3]);
        ctx.lineWidth = 2;
        ctx.strokeStyle = b.frozen ? "#777" : L.color(i);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    });
  },
}));
