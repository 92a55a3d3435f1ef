// Planet Wars (docs/games/planet-wars.md). Draws seat 0's observation, where
// player k + 1 is seat k and `null` is neutral. Planets are sized by ships and
// shaped by owner, and labelled with their names, as answers name them;
// expeditions move along their paths with their counts and ids; a planet that
// changed hands this turn gets a ring in its new owner's colour.
"use strict";
Ludus.register({
  game: "planet-wars",
  legend: "planet: its name (as moves name it) and ships · size: ships · shape and colour: owner · " +
    "ring: changed hands this turn · fleet: ships and #id",

  accepts: (v) => v && Array.isArray(v.planets) && Array.isArray(v.expeditions),

  series(v, seats) {
    const planets = new Array(seats).fill(0);
    for (const p of v.planets) if (p.owner != null && p.owner <= seats) planets[p.owner - 1]++;
    return { planets };
  },

  draw(ctx, s) {
    const L = Ludus;
    const to = s.to, from = s.from || to;
    const seatOf = (owner) => (owner == null ? null : owner - 1);
    // Fit the map (all planets) in the canvas, y up as on a chart.
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const p of to.planets) { x0 = Math.min(x0, p.x); x1 = Math.max(x1, p.x); y0 = Math.min(y0, p.y); y1 = Math.max(y1, p.y); }
    const margin = 40;
    const scale = Math.min((s.width - 2 * margin) / Math.max(1, x1 - x0), (s.height - 2 * margin) / Math.max(1, y1 - y0));
    const cx = (s.width - (x1 - x0) * scale) / 2, cy = (s.height - (y1 - y0) * scale) / 2;
    const X = (x) => cx + (x - x0) * scale;
    const Y = (y) => s.height - (cy + (y - y0) * scale);
    const byName = new Map(to.planets.map((p, i) => [p.name, i]));
    const fromPlanets = from.planets;
    const unit = Math.max(4, Math.min(scale * 0.45, 30));
    const radius = (ships) => Math.min(unit * 2.2, unit * 0.45 + Math.sqrt(Math.max(0, ships)) * unit * 0.16);
    const t = s.t;

    // Expeditions: ids are stable while in flight. New ones start at their
    // origin; ones that landed this turn finish their path.
    const travel = (e) => {
      const a = to.planets[byName.get(e.origin)], b = to.planets[byName.get(e.destination)];
      if (!a || !b) return null;
      const d = Math.sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2);
      return { a, b, total: Math.max(1, Math.ceil(d)) };
    };
    const progress = (e, path) => Math.max(0, Math.min(1, (path.total - e.turns_remaining) / path.total));
    const fromExp = new Map(from.expeditions.map((e) => [e.id, e]));
    const toIds = new Set(to.expeditions.map((e) => e.id));
    const fleets = [];
    for (const e of to.expeditions) {
      const path = travel(e);
      if (!path) continue;
      const before = fromExp.get(e.id);
      const p0 = before && from !== to ? progress(before, path) : from === to ? progress(e, path) : 0;
      fleets.push({ e, path, p: L.lerp(p0, progress(e, path), t), alpha: 1 });
    }
    if (from !== to) {
      for (const e of from.expeditions) {
        if (toIds.has(e.id)) continue;
        const path = travel(e);
        if (path) fleets.push({ e, path, p: L.lerp(progress(e, path), 1, t), alpha: 1 - t * 0.6 });
      }
    }

    // Paths under everything.
    ctx.lineWidth = 1;
    for (const f of fleets) {
      ctx.strokeStyle = L.color(seatOf(f.e.owner));
      ctx.globalAlpha = 0.25 * f.alpha;
      ctx.setLineDash(L.dashes[seatOf(f.e.owner) % L.dashes.length] || []);
      ctx.beginPath();
      ctx.moveTo(X(f.path.a.x), Y(f.path.a.y));
      ctx.lineTo(X(f.path.b.x), Y(f.path.b.y));
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;

    // Planets.
    to.planets.forEach((p, i) => {
      const before = fromPlanets[i] || p;
      const ships = L.lerp(before.ship_count, p.ship_count, t);
      const owner = t < 0.5 ? before.owner : p.owner;
      const seat = seatOf(owner);
      const r = radius(ships);
      const x = X(p.x), y = Y(p.y);
      ctx.beginPath();
      L.shapePath(ctx, seat == null ? "circle" : L.shape(seat), x, y, r);
      ctx.fillStyle = seat == null ? "#e4e4e4" : L.pattern(ctx, seat, 0.85);
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = seat == null ? "#8a8a8a" : L.color(seat);
      ctx.stroke();
      if (before.owner !== p.owner) {
        // Changed hands this turn: a ring in the new owner's colour, growing in.
        const ns = seatOf(p.owner);
        ctx.beginPath();
        ctx.arc(x, y, r + 5 + 8 * (1 - t), 0, 2 * Math.PI);
        ctx.setLineDash([5, 3]);
        ctx.lineWidth = 3;
        ctx.strokeStyle = ns == null ? "#555" : L.color(ns);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      L.text(ctx, String(Math.round(ships)), x, y, Math.max(10, Math.min(16, r * 0.9)));
      // The name a move's origin or destination gives.
      L.text(ctx, p.name, x, y + r + 9, 11, "#333");
    });

    // Fleets on top.
    for (const f of fleets) {
      const seat = seatOf(f.e.owner);
      const x = L.lerp(X(f.path.a.x), X(f.path.b.x), f.p);
      const y = L.lerp(Y(f.path.a.y), Y(f.path.b.y), f.p);
      L.mark(ctx, seat, x, y, 5, { alpha: f.alpha, lineWidth: 1 });
      L.text(ctx, `${f.e.ship_count} #${f.e.id}`, x + 12, y - 8, 10, L.color(seat), "left");
    }

    L.text(ctx, `turn ${s.turn}`, 10, 14, 12, "#555", "left");
  },
});
