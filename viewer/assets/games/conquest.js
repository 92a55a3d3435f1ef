// Conquest: walls, land by team, capitals and former capitals, buildings,
// parked soldiers, robots, battles and the blasts of the turn, on the whole
// board (the frame's spectator view) or as one team saw it, fog included.
// Observation: owner[y][x] (null: never seen), seen[y][x], walls, region,
// capitals, buildings, garrisons, self, robots, battles. Spectator view:
// owner, walls, former_capitals, buildings, garrisons, teams, battles, strikes.
"use strict";
(function () {
  const L = Ludus, G = Ludus.grid;
  /// What the board shows: "all" (the whole board) or a seat's view.
  let shown = "all";
  const spectators = new WeakMap();

  /// The whole state of a frame, parsed once.
  function whole(frame) {
    if (!frame || typeof frame.spectator !== "string") return null;
    let s = spectators.get(frame);
    if (s === undefined) {
      try { s = JSON.parse(frame.spectator); } catch (e) { s = null; }
      spectators.set(frame, s);
    }
    return s;
  }

  const key = (p) => `${p[0]},${p[1]}`;

  /// One picture of the board, whatever its source: cells, walls and the
  /// marks on them, robots by seat.
  function picture(frame, index, seat) {
    if (seat === "all") {
      const s = whole(frame);
      if (!s) return null;
      return {
        turn: s.turn, width: s.width, height: s.height, owner: s.owner, seen: null,
        walls: s.walls, former: s.former_capitals, buildings: s.buildings, garrisons: s.garrisons,
        capitals: s.teams.filter((t) => t.alive).map((t) => ({ team: t.team, position: t.capital })),
        robots: s.teams.filter((t) => t.alive).map((t) => ({ team: t.team, position: t.position, task: t.task && t.task.kind })),
        battles: s.battles, strikes: s.strikes,
      };
    }
    const v = L.view(index, seat);
    if (!v || !v.self) return null;
    const robots = v.robots.map((r) => ({ team: r.team, position: r.position, task: r.task }));
    if (v.self.alive) robots.push({ team: v.self.team, position: v.self.position, task: v.self.task && v.self.task.kind });
    return {
      turn: v.turn, width: v.width, height: v.height, owner: v.owner, seen: v.seen,
      walls: v.walls, former: v.former_capitals, buildings: v.buildings, garrisons: v.garrisons,
      capitals: v.capitals, robots, battles: v.battles, strikes: [],
    };
  }

  function drawCells(ctx, p, g) {
    for (let y = 0; y < p.height; y++) {
      for (let x = 0; x < p.width; x++) {
        const o = p.owner[y] ? p.owner[y][x] : null;
        ctx.fillStyle = o == null ? "#5b5b60" : o < 0 ? "#f1f1f1" : L.pattern(ctx, o, 0.7);
        ctx.fillRect(g.X(x), g.Y(y), g.cell, g.cell);
        // Out of view: what the team last saw, greyed.
        if (p.seen && o != null && p.seen[y][x] !== p.turn) {
          ctx.fillStyle = "rgba(90,90,96,0.45)";
          ctx.fillRect(g.X(x), g.Y(y), g.cell, g.cell);
        }
      }
    }
    for (const w of p.walls) {
      ctx.fillStyle = "#2b2b2e";
      ctx.fillRect(g.X(w[0]), g.Y(w[1]), g.cell, g.cell);
    }
    ctx.strokeStyle = "rgba(0,0,0,0.12)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = 0; x <= p.width; x++) { ctx.moveTo(g.X(x), g.Y(0)); ctx.lineTo(g.X(x), g.Y(p.height)); }
    for (let y = 0; y <= p.height; y++) { ctx.moveTo(g.X(0), g.Y(y)); ctx.lineTo(g.X(p.width), g.Y(y)); }
    ctx.stroke();
    // The quarters.
    ctx.strokeStyle = "rgba(0,0,0,0.35)";
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(g.X(p.width / 2), g.Y(0)); ctx.lineTo(g.X(p.width / 2), g.Y(p.height));
    ctx.moveTo(g.X(0), g.Y(p.height / 2)); ctx.lineTo(g.X(p.width), g.Y(p.height / 2));
    ctx.stroke();
  }

  function drawMarks(ctx, p, g) {
    for (const c of p.former) {
      ctx.setLineDash([3, 3]);
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = "#333";
      ctx.strokeRect(g.X(c[0]) + 3, g.Y(c[1]) + 3, g.cell - 6, g.cell - 6);
      ctx.setLineDash([]);
    }
    for (const c of p.capitals) {
      ctx.lineWidth = Math.max(3, g.cell * 0.1);
      ctx.strokeStyle = L.color(c.team);
      const inset = ctx.lineWidth / 2 + 1;
      ctx.strokeRect(g.X(c.position[0]) + inset, g.Y(c.position[1]) + inset, g.cell - 2 * inset, g.cell - 2 * inset);
    }
    const size = Math.max(8, g.cell * 0.26);
    for (const b of p.buildings) {
      const letter = { mine: "M", barracks: "B", post: "P" }[b.kind] || "?";
      L.text(ctx, b.ready ? letter : letter.toLowerCase() + "…", g.X(b.position[0]) + g.cell * 0.26, g.Y(b.position[1]) + g.cell * 0.76, size, b.ready ? "#111" : "#666");
    }
    for (const n of p.garrisons) {
      L.text(ctx, String(n.soldiers), g.X(n.position[0]) + g.cell * 0.95, g.Y(n.position[1]) + g.cell * 0.2, Math.max(7, g.cell * 0.2), L.color(n.team), "right");
    }
  }

  function drawFights(ctx, p, g) {
    for (const s of p.strikes) {
      ctx.fillStyle = "rgba(230,40,20,0.35)";
      for (const c of s.hit) ctx.fillRect(g.X(c[0]), g.Y(c[1]), g.cell, g.cell);
      for (const t of s.targets) {
        ctx.beginPath();
        ctx.arc(g.X(t[0] + 0.5), g.Y(t[1] + 0.5), g.cell * 0.42, 0, 2 * Math.PI);
        ctx.lineWidth = 2.5;
        ctx.strokeStyle = L.color(s.team);
        ctx.stroke();
      }
    }
    for (const b of p.battles) {
      const [x, y] = b.position;
      ctx.strokeStyle = "#d00";
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.moveTo(g.X(x) + 4, g.Y(y) + 4); ctx.lineTo(g.X(x + 1) - 4, g.Y(y + 1) - 4);
      ctx.moveTo(g.X(x + 1) - 4, g.Y(y) + 4); ctx.lineTo(g.X(x) + 4, g.Y(y + 1) - 4);
      ctx.stroke();
      if (b.siege) {
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(g.X(b.from[0] + 0.5), g.Y(b.from[1] + 0.5));
        ctx.lineTo(g.X(x + 0.5), g.Y(y + 0.5));
        ctx.stroke();
        ctx.setLineDash([]);
      }
      L.text(ctx, `${b.attack}⚔${b.defense + b.reserve + b.garrison}`, g.X(x + 0.5), g.Y(y) + g.cell * 0.12, Math.max(7, g.cell * 0.18), "#a00");
    }
  }

  function drawRobots(ctx, p, before, t, g) {
    const was = new Map((before ? before.robots : []).map((r) => [r.team, r.position]));
    for (const r of p.robots) {
      const p0 = was.get(r.team) || r.position;
      const x = L.lerp(p0[0], r.position[0], t), y = L.lerp(p0[1], r.position[1], t);
      L.mark(ctx, r.team, g.X(x + 0.5), g.Y(y + 0.5), g.cell * 0.28, { alpha: r.task ? 0.75 : 1, lineWidth: 2 });
    }
  }

  L.register({
    game: "conquest",
    legend: "thick square: a capital · dashed: a former capital · M B P: mine, barracks, post (small: building) · " +
      "number: parked soldiers · red cross: a battle (attack⚔defense) · red: a blast · grey: out of the team's view, darker: never seen",
    accepts: (v) => !!v && Array.isArray(v.owner) && Array.isArray(v.seen) && !!v.self && !!v.rules,

    /// A choice of view beside the playback controls: the whole board, or
    /// one team's.
    init(P) {
      const old = document.getElementById("conquest-view");
      if (old) old.parentElement.remove();
      const label = document.createElement("label");
      label.className = "speed";
      label.textContent = "view ";
      const select = document.createElement("select");
      select.id = "conquest-view";
      select.title = "The whole board, or the board as one team saw it";
      const add = (value, text) => {
        const o = document.createElement("option");
        o.value = value;
        o.textContent = text;
        select.appendChild(o);
      };
      add("all", "whole board");
      P.doc.replay.seats.forEach((s, i) => add(String(i), `seat ${i}'s view (${Ludus.seatName(i)})`));
      shown = "all";
      select.value = shown;
      select.onchange = () => {
        shown = select.value === "all" ? "all" : Number(select.value);
        L.goTo(P.turn);
      };
      label.appendChild(select);
      document.querySelector(".controls").appendChild(label);
    },

    series(v, seats, i) {
      const s = whole(L.player.frames[i]);
      if (!s) return {};
      const cells = new Array(seats).fill(0);
      for (const row of s.owner) for (const o of row) if (o >= 0 && o < seats) cells[o]++;
      const soldiers = new Array(seats).fill(0), gold = new Array(seats).fill(0);
      s.teams.forEach((t, k) => { if (k < seats) { soldiers[k] = t.attack + t.defense + t.reserve; gold[k] = t.gold; } });
      return { cells, soldiers, gold };
    },

    draw(ctx, s) {
      const to = s.turn;
      const from = s.prevFrame === s.frame ? to : to - 1;
      const p = picture(s.frame, to, shown);
      if (!p) {
        L.text(ctx, "no state to draw for this view", s.width / 2, s.height / 2, 14, "#555");
        return;
      }
      const before = picture(s.prevFrame, from, shown);
      const g = G.layout(s, p.width, p.height);
      drawCells(ctx, p, g);
      drawMarks(ctx, p, g);
      drawFights(ctx, p, g);
      drawRobots(ctx, p, before, s.t, g);
      const label = shown === "all" ? "whole board" : `seat ${shown}'s view`;
      L.text(ctx, `turn ${to} · ${label}`, 8, 12, 12, "#555", "left");
    },
  });
})();
