// Pirates (docs/games/pirates.md): the hexagonal sea in cube coordinates,
// pointy-top, row r growing downwards. A seat sees other ships and the NPCs
// only within its sight, so the board is drawn from every seat's
// observation and the frame's spectator view: each seat's own ship from its
// own view, the map and the flag from seat 0's, the NPCs from the spectator
// view (from seat 0's in documents without one). Shots come from the
// replay's record of the move (players) and from the NPCs' `firedAt` after
// the NPCs have acted.
"use strict";
(function () {
  const L = Ludus;
  const SQRT3 = Math.sqrt(3);
  const key = (q, r) => `${q},${r}`;

  const spectators = new WeakMap();

  /// The NPCs of a frame: from its spectator view, parsed once, else from
  /// `view` (seat 0's observation).
  function npcsOf(frame, view) {
    let s = frame ? spectators.get(frame) : undefined;
    if (s === undefined && frame && typeof frame.spectator === "string") {
      try { s = JSON.parse(frame.spectator); } catch (e) { s = null; }
      spectators.set(frame, s);
    }
    const v = s || view;
    return v ? [v.npc1, v.npc2] : [null, null];
  }

  /// Every seat's own ship in frame `turn` (null once sunk or unknown).
  function ships(turn, seats) {
    const out = [];
    for (let k = 0; k < seats; k++) {
      const v = L.view(turn, k);
      const me = v && v[`player${k + 1}`];
      out.push(me && me.health > 0 ? me : null);
    }
    return out;
  }

  function hexPath(ctx, x, y, size) {
    ctx.beginPath();
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 6 + (i * Math.PI) / 3;
      const px = x + size * Math.cos(a), py = y + size * Math.sin(a);
      if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
    }
    ctx.closePath();
  }

  function bar(ctx, x, y, w, share, color) {
    ctx.fillStyle = "rgba(0,0,0,0.55)";
    ctx.fillRect(x - w / 2 - 1, y - 1, w + 2, 5);
    ctx.fillStyle = "#e6e6e6";
    ctx.fillRect(x - w / 2, y, w, 3);
    ctx.fillStyle = color;
    ctx.fillRect(x - w / 2, y, w * Math.max(0, Math.min(1, share)), 3);
  }

  function vortex(ctx, x, y, size) {
    ctx.strokeStyle = "rgba(20,60,110,0.75)";
    ctx.lineWidth = 1.2;
    ctx.beginPath();
    for (let a = 0; a < 4.5 * Math.PI; a += 0.3) {
      const rr = (size * 0.75 * a) / (4.5 * Math.PI);
      const px = x + rr * Math.cos(a), py = y + rr * Math.sin(a);
      if (a === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
    }
    ctx.stroke();
  }

  function flagMark(ctx, x, y, size) {
    ctx.strokeStyle = "#222";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x - size * 0.3, y + size * 0.6);
    ctx.lineTo(x - size * 0.3, y - size * 0.65);
    ctx.stroke();
    ctx.fillStyle = "#d62728";
    ctx.beginPath();
    ctx.moveTo(x - size * 0.3, y - size * 0.65);
    ctx.lineTo(x + size * 0.55, y - size * 0.4);
    ctx.lineTo(x - size * 0.3, y - size * 0.15);
    ctx.closePath();
    ctx.fill();
  }

  L.register({
    game: "pirates",
    legend: "sand: islands · $: shops · outlined: flag islands, the red flag on one · spirals: vortices · "
      + "dotted: the NPCs' ring · marks: ships, bar: health, ring: held by a vortex · black: NPCs · lines: shots",

    accepts: (v) => v && v.map && Array.isArray(v.map.islands) && v.flag && "yourId" in v,

    series(v, seats) {
      const health = ships(v.move, seats).map((s) => (s ? s.health : 0));
      return { health };
    },

    draw(ctx, s) {
      const to = s.to;
      const seats = s.seats.length;
      const fromTurn = s.prevFrame ? s.prevFrame.turn : s.turn;
      const radius = to.map.radius;
      const size = Math.max(3, Math.min((s.width - 24) / (SQRT3 * (2 * radius + 1)), (s.height - 24) / (3 * radius + 2)));
      const X = (q, r) => s.width / 2 + size * SQRT3 * (q + r / 2);
      const Y = (q, r) => s.height / 2 + size * 1.5 * r;

      // The sea and its fields.
      const kind = new Map();
      for (const [q, r] of to.map.vortices) kind.set(key(q, r), "vortex");
      for (const [q, r] of to.map.islands) kind.set(key(q, r), "island");
      for (const [q, r] of to.map.flagIslands) kind.set(key(q, r), "flag");
      for (const [q, r] of to.map.shops) kind.set(key(q, r), "shop");
      ctx.lineWidth = 1;
      for (let r = -radius; r <= radius; r++) {
        for (let q = -radius; q <= radius; q++) {
          if (Math.abs(q + r) > radius) continue;
          const x = X(q, r), y = Y(q, r);
          const k = kind.get(key(q, r));
          hexPath(ctx, x, y, size);
          ctx.fillStyle = k === "island" || k === "shop" || k === "flag" ? "#d8c08a" : "#bfe0f0";
          ctx.fill();
          ctx.strokeStyle = "rgba(255,255,255,0.7)";
          ctx.stroke();
          if (k === "vortex") vortex(ctx, x, y, size);
          if (k === "flag") {
            hexPath(ctx, x, y, size * 0.8);
            ctx.strokeStyle = "#8a6d2f";
            ctx.stroke();
          }
          if (k === "shop") L.text(ctx, "$", x, y, Math.max(8, size * 1.1));
          const ring = Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
          if (ring === to.map.npcRing && !k) {
            ctx.fillStyle = "rgba(0,0,0,0.25)";
            ctx.beginPath();
            ctx.arc(x, y, Math.max(1, size * 0.12), 0, 2 * Math.PI);
            ctx.fill();
          }
        }
      }
      flagMark(ctx, X(to.flag.q, to.flag.r), Y(to.flag.q, to.flag.r), size);

      // Ships, moving from where they were.
      const now = ships(s.turn, seats), before = ships(fromTurn, seats);
      const at = (p, b) => {
        const q = b ? L.lerp(b.q, p.q, s.t) : p.q, r = b ? L.lerp(b.r, p.r, s.t) : p.r;
        return [X(q, r), Y(q, r)];
      };
      const npcs = npcsOf(s.frame, to);
      const npcsBefore = s.from ? npcsOf(s.prevFrame, s.from) : npcs;
      npcs.forEach((n, i) => {
        if (!n) return;
        const [x, y] = at(n, npcsBefore[i]);
        ctx.fillStyle = "#111";
        ctx.beginPath();
        L.shapePath(ctx, "hexagon", x, y, size * 0.62);
        ctx.fill();
        ctx.fillStyle = "#fff";
        ctx.font = `600 ${Math.max(7, size * 0.8)}px system-ui, sans-serif`;
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(String(n.id), x, y);
        bar(ctx, x, y - size * 1.05, size * 1.4, n.health / n.maxHealth, "#555");
      });
      now.forEach((p, seat) => {
        if (!p) return;
        const [x, y] = at(p, before[seat]);
        if (p.paralyzed) {
          ctx.strokeStyle = "rgba(20,60,110,0.9)";
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.arc(x, y, size * 0.9, 0, 2 * Math.PI);
          ctx.stroke();
        }
        L.mark(ctx, seat, x, y, size * 0.6, { lineWidth: 1.5 });
        bar(ctx, x, y - size * 1.05, size * 1.4, p.health / p.maxHealth, L.color(seat));
      });

      // Shots of the move that led here (also when paused on it): the
      // player's answer, and the NPCs' after the fourth seat's move; aimed
      // where the ships were before it.
      const shot = (x0, y0, x1, y1, color) => {
        ctx.strokeStyle = color;
        ctx.lineWidth = 2.5;
        ctx.setLineDash([5, 3]);
        ctx.globalAlpha = 0.35 + 0.65 * s.t;
        ctx.beginPath();
        ctx.moveTo(x0, y0);
        ctx.lineTo(x1, y1);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.globalAlpha = 1;
        ctx.fillStyle = color;
        ctx.beginPath();
        ctx.arc(x1, y1, size * 0.3, 0, 2 * Math.PI);
        ctx.fill();
      };
      const last = ships(Math.max(0, s.turn - 1), seats);
      const lastTurn = Math.max(0, s.turn - 1);
      const lastNpcs = npcsOf(L.player.frames[lastTurn], L.view(lastTurn, 0) || to);
      const target = (id) => {
        if (id >= 1 && id <= seats) return last[id - 1] || now[id - 1];
        return lastNpcs[id - 5] || npcs[id - 5];
      };
      if (s.record) {
        const seat = (s.turn - 1) % seats;
        const rec = s.record.seats[seat] || {};
        const word = typeof rec.answer === "string" ? rec.answer.replace(/"/g, "").trim().toLowerCase() : "";
        const m = /^atk-(\d+)$/.exec(word);
        const from = last[seat];
        if (m && from && !(rec.refused && rec.refused.length)) {
          const t = target(Number(m[1]));
          if (t) shot(X(from.q, from.r), Y(from.q, from.r), X(t.q, t.r), Y(t.q, t.r), L.color(seat));
        }
      }
      if (to.move > 0 && to.move % seats === 0) {
        npcs.forEach((n) => {
          if (!n || n.firedAt == null) return;
          const t = now[n.firedAt - 1] || last[n.firedAt - 1];
          if (t) shot(X(n.q, n.r), Y(n.q, n.r), X(t.q, t.r), Y(t.q, t.r), "#111");
        });
      }
    },
  });
})();
